"""Run the REAL OpenCode CLI (``opencode run``) against the scripted chat-completions server.

Everything about the run is local: a temporary ``HOME`` (so ``~/.config/opencode``
and ``~/.local/share/opencode/opencode.db`` are the run's own) whose
``opencode.json`` names one custom provider, ``scripted``, served by the
built-in ``@ai-sdk/openai-compatible`` at ``options.baseURL`` on 127.0.0.1
(the pi tests' model server); the ``OPENCODE_DISABLE_*`` switches keep it from
fetching models, updating, downloading LSPs, sharing or loading default
plug-ins; ``--auto`` lets every tool run unasked.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from scripted_agents.cli_run import REPO, CliRun, fresh_folders, launch

sys.path.insert(0, str(REPO / "tests" / "hosts"))  # the pi tests' model server, as ``pi.…``
from pi.model_server import Call, Script, Turn, serve

__all__ = ["MODEL", "OPENCODE_BIN", "SUB_TASK", "OpenCodeRun", "run_opencode", "session_turns"]

OPENCODE_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "opencode"
MODEL = "scripted/scripted-model"
_SWITCHES = ("MODELS_FETCH", "AUTOUPDATE", "LSP_DOWNLOAD", "SHARE", "DEFAULT_PLUGINS")


class OpenCodeRun(CliRun):
    """What one scripted OpenCode run produced."""

    @property
    def database(self) -> Path:
        return self.home / ".local" / "share" / "opencode" / "opencode.db"


TITLE = "Scripted steps"
SUB_TASK = "Count the files."


class TitledScript(Script):
    """The turns, played only to the agent's requests (those offering tools): OpenCode asks
    the same model for a title at the same time, and that answer must not take a turn."""

    def next_turn(self, body: dict[str, Any]) -> Turn:
        if body.get("tools"):
            return super().next_turn(body)
        return Turn(text=TITLE)


def session_turns(workspace: Path) -> list[Turn]:
    """A shell call that succeeds, one that fails (exit 3), a file written, then edited,
    read, a todo list, a sub-agent (``general``) that runs a command, and a closing answer."""
    notes = str(workspace / "notes.txt")
    return [
        Turn(
            calls=(Call("c1", "bash", {"command": "echo hello-from-shell", "description": "hi"}),)
        ),
        Turn(
            calls=(
                Call("c2", "bash", {"command": "echo failing >&2; exit 3", "description": "fail"}),
            )
        ),
        Turn(calls=(Call("c3", "write", {"filePath": notes, "content": "alpha\nbeta\n"}),)),
        Turn(calls=(Call("c4", "read", {"filePath": notes}),)),
        Turn(
            calls=(
                Call("c5", "edit", {"filePath": notes, "oldString": "beta", "newString": "gamma"}),
            )
        ),
        Turn(
            calls=(
                Call(
                    "c6",
                    "todowrite",
                    {
                        "todos": [
                            {
                                "content": "write notes",
                                "status": "completed",
                                "priority": "high",
                                "id": "1",
                            },
                            {
                                "content": "review",
                                "status": "in_progress",
                                "priority": "low",
                                "id": "2",
                            },
                        ]
                    },
                ),
            )
        ),
        Turn(
            calls=(
                Call(
                    "c7",
                    "task",
                    {"description": "count", "prompt": SUB_TASK, "subagent_type": "general"},
                ),
            )
        ),
        # the sub-agent's turns: OpenCode waits for it, so they come next, in order
        Turn(calls=(Call("s1", "bash", {"command": "echo sub-agent-ran", "description": "sub"}),)),
        Turn(text="counted: 1 file"),
        Turn(text="All steps are done."),
    ]


def _config(base_url: str) -> dict[str, object]:
    return {
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": False,
        "share": "disabled",
        "provider": {
            "scripted": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Scripted",
                "options": {"baseURL": base_url, "apiKey": "literal-key"},
                "models": {"scripted-model": {"name": "Scripted model"}},
            }
        },
    }


def run_opencode(
    root: Path, turns: list[Turn] | None = None, *, timeout: float = 120.0
) -> OpenCodeRun:
    """One ``opencode run`` of the scripted turns in a fresh HOME under ``root``."""
    home, workspace = fresh_folders(root)
    (home / ".config" / "opencode").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENCODE", "XDG_"))}
    env.update(
        {f"OPENCODE_DISABLE_{name}": "1" for name in _SWITCHES},
        HOME=str(home),
        PWD=str(workspace),
        NO_COLOR="1",
    )
    played = TitledScript(turns if turns is not None else session_turns(workspace))
    with serve([], played) as (url, script):
        config = home / ".config" / "opencode" / "opencode.json"
        config.write_text(json.dumps(_config(url)))
        argv = [str(OPENCODE_BIN), "run", "--auto", "-m", MODEL, "Work through the scripted steps."]
        done = launch(argv, workspace, env, timeout)
    return OpenCodeRun(done.returncode, done.stdout, done.stderr, home, workspace, script)


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="opencode-run-") as scratch:
        run = run_opencode(Path(scratch))
        print(run.returncode, run.stdout, run.stderr[-3000:], sep="\n---\n")
        if len(sys.argv) > 1 and run.database.is_file():
            import sqlite3

            sqlite3.connect(run.database).execute("VACUUM INTO ?", (sys.argv[1],))
            print("wrote", sys.argv[1])
