"""Run the REAL Gemini CLI (``gemini -p``) against the scripted Gemini server.

Everything about the run is local: a temporary ``HOME`` whose
``~/.gemini/settings.json`` turns usage statistics, telemetry, auto-update
and folder trust off (they are what reach out, or stop a headless run), the
API-key auth (any ``GEMINI_API_KEY``; ``GOOGLE_GEMINI_BASE_URL`` on 127.0.0.1 is
where it sends; the "gateway" auth that variable alone selects is refused by
0.61's headless check, so settings name ``gemini-api-key``) and ``--yolo`` so
every tool runs unasked.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .codex_session import SECRETS
from .scripted_gemini import Call, GeminiScript, GeminiTurn, Say, Think, serve_gemini

__all__ = ["GEMINI_BIN", "MODEL", "SUB_TASK", "GeminiRun", "run_gemini", "session_turns"]

REPO = Path(__file__).resolve().parents[2]
GEMINI_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "gemini"
MODEL = "gemini-2.5-flash"
SUB_TASK = "Count the files."
SETTINGS = {
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "security": {"folderTrust": {"enabled": False}, "auth": {"selectedType": "gemini-api-key"}},
}


@dataclass
class GeminiRun:
    """What one scripted Gemini run produced."""

    returncode: int
    stdout: str
    stderr: str
    home: Path
    workspace: Path
    script: GeminiScript

    def chats(self) -> list[Path]:
        """Every chat file the run wrote (main and sub-agents'), by path."""
        return sorted((self.home / ".gemini" / "tmp").rglob("*.jsonl"))


def session_turns(workspace: Path) -> list[GeminiTurn]:
    """A shell call that succeeds, one that fails (exit 3), a file written, then read, found,
    a todo list, a sub-agent (the ``generalist``) that runs a command, and a closing answer."""
    notes = str(workspace / "notes.txt")
    return [
        GeminiTurn(
            (
                Think("List the workspace first."),
                Call(
                    "run_shell_command",
                    {"command": "echo hello-from-shell", "description": "say hello"},
                ),
            )
        ),
        GeminiTurn(
            (Call("run_shell_command", {"command": f"echo failing aws={SECRETS[1]} >&2; exit 3"}),)
        ),
        GeminiTurn((Call("write_file", {"file_path": notes, "content": "alpha\nbeta\n"}),)),
        GeminiTurn((Call("read_file", {"file_path": notes}),)),
        GeminiTurn((Call("glob", {"pattern": "*.txt"}),)),
        GeminiTurn(
            (
                Call(
                    "write_todos",
                    {
                        "todos": [
                            {"description": "write notes", "status": "completed"},
                            {"description": "review", "status": "in_progress"},
                        ]
                    },
                ),
            )
        ),
        GeminiTurn((Call("invoke_agent", {"agent_name": "generalist", "prompt": SUB_TASK}),)),
        # the sub-agent's turns: the CLI waits for it, so they come next, in order
        GeminiTurn((Call("run_shell_command", {"command": "echo sub-agent-ran"}),)),
        GeminiTurn((Call("complete_task", {"result": {"response": "counted: 1 file"}}),)),
        GeminiTurn((Say("All steps are done."),)),
    ]


def gemini_env(home: Path, base_url: str) -> dict[str, str]:
    """The CLI's environment: its own HOME, no Google settings inherited."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI", "GOOGLE"))}
    env.update(
        HOME=str(home),
        GOOGLE_GEMINI_BASE_URL=base_url,
        GEMINI_API_KEY="literal-key",
        GEMINI_TELEMETRY_ENABLED="false",
        NO_COLOR="1",
    )
    return env


def run_gemini(
    root: Path, turns: list[GeminiTurn] | None = None, *, timeout: float = 240.0
) -> GeminiRun:
    """One ``gemini -p`` of the scripted turns in a fresh HOME under ``root``."""
    home, workspace = root / "home", root / "workspace"
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    workspace.mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(SETTINGS))
    with serve_gemini(turns if turns is not None else session_turns(workspace)) as (url, script):
        done = subprocess.run(
            [str(GEMINI_BIN), "-m", MODEL, "--yolo", "-p", "Work through the scripted steps."],
            cwd=workspace, env=gemini_env(home, url), capture_output=True, text=True,
            timeout=timeout, stdin=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    return GeminiRun(done.returncode, done.stdout, done.stderr, home, workspace, script)


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="gemini-run-") as scratch:
        run = run_gemini(Path(scratch))
        print(run.returncode, run.stdout, run.stderr[-3000:], sep="\n---\n")
        for chat in run.chats():
            dest = Path(sys.argv[1]) / chat.relative_to(run.home / ".gemini" / "tmp")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(chat.read_bytes())
            print(dest)
