"""Run the REAL GitHub Copilot CLI (``copilot -p TASK --allow-all-tools``) against the
scripted OpenAI-compatible model on loopback.

Everything is local: Copilot CLI 1.0.102 takes a custom provider from
``COPILOT_PROVIDER_BASE_URL`` (with ``COPILOT_PROVIDER_TYPE=openai`` and
``COPILOT_PROVIDER_API_KEY``: its "BYOK" path, which needs no GitHub login) and
``COPILOT_OFFLINE=true`` turns off everything that would call GitHub (login,
telemetry, auto-update, MCP registry). A temporary ``HOME``/``COPILOT_HOME``
holds its ``session-state``. The npm package's native binary unpacks its
JavaScript into ``COPILOT_PKG_CACHE_HOME`` once: a folder shared by the runs.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pi.model_server import Call, Turn, serve

from scripted_agents.cli_run import CliRun, fresh_folders, launch

__all__ = ["COPILOT_BIN", "MODEL", "SECRET", "TASK", "CopilotRun", "run_copilot", "session_turns"]

REPO = Path(__file__).resolve().parents[3]
COPILOT_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "copilot"
MODEL = "gpt-4.1"
TASK = "Work through the scripted steps."
SECRET = "AKIAQ3EXAMPLE7ZX9KT2"
_UNPACKED = Path(tempfile.gettempdir()) / "toolview-copilot-pkg"


class CopilotRun(CliRun):
    """What one scripted Copilot CLI run produced."""

    @property
    def state(self) -> Path:
        """``~/.copilot/session-state``: where the CLI keeps its sessions."""
        return self.home / ".copilot" / "session-state"

    def logs(self) -> list[Path]:
        """Every session event log the run wrote."""
        return sorted(self.state.glob("*/events.jsonl"))


def session_turns(workspace: Path) -> list[Turn]:
    """Thinking and a shell call that succeeds, one that exits 3 with a key in its command,
    a file created then viewed, a sub-agent running a command of its own, and an answer."""
    notes = str(workspace / "notes.txt")
    task = {
        "description": "look around",
        "prompt": "Run one command.",
        "agent_type": "task",
        "name": "helper",
    }
    return [
        Turn(
            thinking="List the workspace first.",
            calls=(Call("c1", "bash", {"command": "echo hello-from-shell", "description": "hi"}),),
        ),
        Turn(calls=(Call("c2", "bash", {"command": f"echo failing aws={SECRET} >&2; exit 3"}),)),
        Turn(calls=(Call("c3", "create", {"path": notes, "file_text": "alpha\nbeta\n"}),)),
        Turn(calls=(Call("c4", "view", {"path": notes}),)),
        Turn(calls=(Call("c5", "task", task),)),
        Turn(calls=(Call("s1", "bash", {"command": "echo from-the-sub-agent"}),)),
        Turn(text="The sub-agent is done."),
        Turn(text="All steps are done."),
    ]


def copilot_env(home: Path, base_url: str) -> dict[str, str]:
    """The CLI's environment: its own HOME, no GitHub token or Copilot setting inherited."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GH_", "GITHUB", "COPILOT"))}
    env.update(
        HOME=str(home),
        COPILOT_HOME=str(home / ".copilot"),
        COPILOT_OFFLINE="true",
        COPILOT_AUTO_UPDATE="false",
        COPILOT_PROVIDER_BASE_URL=base_url,
        COPILOT_PROVIDER_TYPE="openai",
        COPILOT_PROVIDER_API_KEY="literal-key",
        COPILOT_MODEL=MODEL,
        COPILOT_PKG_CACHE_HOME=str(_UNPACKED),
        COPILOT_CACHE_HOME=str(_UNPACKED),
        NO_COLOR="1",
    )
    return env


def run_copilot(
    root: Path, turns: list[Turn] | None = None, *, timeout: float = 180.0
) -> CopilotRun:
    """One ``copilot -p`` of the scripted turns in a fresh HOME under ``root``."""
    home, workspace = fresh_folders(root)
    with serve(turns if turns is not None else session_turns(workspace)) as (url, script):
        argv = [str(COPILOT_BIN), "-p", TASK, "--allow-all-tools", "--model", MODEL]
        done = launch(argv, workspace, copilot_env(home, url), timeout)
    return CopilotRun(done.returncode, done.stdout, done.stderr, home, workspace, script)
