"""Run the REAL Qwen Code CLI (``qwen --yolo TASK``) against the scripted OpenAI server.

Everything is local: a temporary ``HOME`` whose ``~/.qwen/settings.json``
selects the ``openai`` auth (``OPENAI_BASE_URL`` on 127.0.0.1 is where it
sends), turns usage statistics, telemetry and auto-update off and enables
``todo_write``; ``--yolo`` so every tool runs unasked. The model is pi's
scripted chat-completions server (``tests/hosts/pi/model_server.py``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pi.model_server import Call, Turn, serve

from scripted_agents.cli_run import CliRun, fresh_folders, launch

__all__ = ["MODEL", "QWEN_BIN", "TASK", "QwenRun", "run_qwen", "session_turns"]

REPO = Path(__file__).resolve().parents[3]
QWEN_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "qwen"
MODEL = "qwen3-coder-plus"
TASK = "Work through the scripted steps."
SETTINGS = {
    "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "tools": {"todoWrite": {"enabled": True}},
}
SECRET = "AKIAQ3EXAMPLE7ZX9KT2"


class QwenRun(CliRun):
    """What one scripted Qwen Code run produced."""

    @property
    def projects(self) -> Path:
        """``~/.qwen/projects``: where the CLI keeps its chats."""
        return self.home / ".qwen" / "projects"

    def chats(self) -> list[Path]:
        """Every chat file the run wrote."""
        return sorted(self.projects.rglob("*.jsonl"))


def session_turns(workspace: Path) -> list[Turn]:
    """Thinking, a shell call that succeeds, one that fails (exit 3, a key in its command), a
    file written, then read, a todo list, and a closing answer."""
    notes = str(workspace / "notes.txt")
    todos = [
        {"id": "1", "content": "write notes", "status": "completed"},
        {"id": "2", "content": "review", "status": "in_progress"},
    ]
    return [
        Turn(
            thinking="List the workspace first.",
            calls=(Call("c1", "run_shell_command", {"command": "echo hello-from-shell"}),),
        ),
        Turn(
            calls=(
                Call(
                    "c2",
                    "run_shell_command",
                    {"command": f"echo failing aws={SECRET} >&2; exit 3"},
                ),
            )
        ),
        Turn(calls=(Call("c3", "write_file", {"file_path": notes, "content": "alpha\nbeta\n"}),)),
        Turn(calls=(Call("c4", "read_file", {"file_path": notes}),)),
        Turn(calls=(Call("c5", "todo_write", {"todos": todos}),)),
        Turn(text="All steps are done."),
    ]


def qwen_env(home: Path, base_url: str) -> dict[str, str]:
    """The CLI's environment: its own HOME, no OpenAI or Qwen settings inherited."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "QWEN", "DASH"))}
    env.update(
        HOME=str(home),
        OPENAI_BASE_URL=base_url,
        OPENAI_API_KEY="literal-key",
        OPENAI_MODEL=MODEL,
        NO_COLOR="1",
    )
    return env


def run_qwen(root: Path, turns: list[Turn] | None = None, *, timeout: float = 120.0) -> QwenRun:
    """One ``qwen --yolo`` of the scripted turns in a fresh HOME under ``root``."""
    home, workspace = fresh_folders(root)
    (home / ".qwen").mkdir(parents=True, exist_ok=True)
    (home / ".qwen" / "settings.json").write_text(json.dumps(SETTINGS))
    with serve(turns if turns is not None else session_turns(workspace)) as (url, script):
        argv = [str(QWEN_BIN), "--auth-type", "openai", "-m", MODEL, "--yolo", TASK]
        done = launch(argv, workspace, qwen_env(home, url), timeout)
    return QwenRun(done.returncode, done.stdout, done.stderr, home, workspace, script)
