"""Run the REAL Claude Code CLI (tests/node) against the scripted model.

``run_claude`` starts the scripted Anthropic server and the CLI in print mode
(``-p``) inside a temporary HOME, so the session files it writes land under
``HOME/.claude/projects`` and nothing of the user's is read or touched. What
the CLI needs to run offline here (learnt from 2.1.197):

- ``ANTHROPIC_BASE_URL`` = the scripted server, ``ANTHROPIC_API_KEY`` = a fake
  key (never a real one), ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`` (no
  other outbound attempt);
- ``--dangerously-skip-permissions`` (no prompt can be answered), which as root
  is refused unless ``IS_SANDBOX=1``;
- ``CLAUDE_CODE_TMPDIR`` inside HOME: else every Bash call's output file
  lands in the shared ``/tmp/claude-<uid>/`` and stays there;
- ``CLAUDE_CODE_ENABLE_TASKS=0`` so ``TodoWrite`` is offered (the default is the
  TaskCreate/TaskUpdate tools) and ``--allowedTools Grep,Glob`` so those two are.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scripted_anthropic import Script, Turn, serve

__all__ = [
    "CLAUDE_BIN",
    "CLAUDE_VERSION",
    "ClaudeRun",
    "claude_env",
    "require_claude",
    "run_claude",
]

REPO = Path(__file__).resolve().parents[3]
CLAUDE_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "claude"
CLAUDE_VERSION = "2.1.197"
TIMEOUT = 300.0


@dataclass
class ClaudeRun:
    """One CLI run: its process, its HOME and workspace, and the model's script."""

    process: subprocess.Popen[str]
    home: Path
    workspace: Path
    script: Script
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def projects(self) -> Path:
        """Where the CLI writes its sessions (what ``serve --watch`` watches)."""
        return self.home / ".claude" / "projects"

    def wait(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Wait for the CLI to exit; its JSON result, or a failure with its output."""
        out, err = self.process.communicate(timeout=timeout)
        if self.process.returncode != 0:
            raise AssertionError(f"claude exited {self.process.returncode}:\n{out}\n{err}")
        self.result = json.loads(out)
        return self.result

    def session_file(self) -> Path:
        """The main session file this run wrote (its id is in the CLI's result)."""
        session_id = self.result.get("session_id", "*")
        found = sorted(self.projects.glob(f"*/{session_id}.jsonl"))
        if len(found) != 1:
            raise AssertionError(f"expected one session file under {self.projects}: {found}")
        return found[0]


def require_claude() -> str:
    """The CLI's path, or a test failure saying why it cannot run (never a skip)."""
    if not CLAUDE_BIN.exists():
        raise AssertionError(f"Claude Code is not installed under {CLAUDE_BIN}: run npm ci")
    return str(CLAUDE_BIN)


def claude_env(home: Path, base_url: str, *, tasks: bool = False) -> dict[str, str]:
    """The CLI's environment: a temporary HOME, the scripted model, no real key.

    ``tasks`` keeps the CLI's default task tools (TaskCreate, …) instead of TodoWrite.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "CLAUDE_", "AWS_", "OPENAI_"))
    }
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="scripted-fake-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        IS_SANDBOX="1",
        CLAUDE_CODE_TMPDIR=str(home / "tmp"),
    )
    if not tasks:
        env["CLAUDE_CODE_ENABLE_TASKS"] = "0"
    return env


@contextmanager
def run_claude(
    home: Path,
    lanes: Mapping[str, list[Turn]],
    prompt: str,
    *,
    files: Mapping[str, bytes] | None = None,
    args: Sequence[str] = (),
    wait: bool = True,
    tasks: bool = False,
    env: Mapping[str, str] | None = None,
) -> Iterator[ClaudeRun]:
    """Run ``claude -p prompt`` in ``home`` against ``lanes`` (see scripted_anthropic).

    ``files`` are written into the workspace (``home/workspace``) first;
    ``tasks`` offers the task tools instead of TodoWrite (see ``claude_env``);
    ``env`` is added to the CLI's environment (its telemetry settings). With
    ``wait`` the CLI has exited (successfully) when this yields; without, it
    is still running and the caller waits. The CLI is killed and the server
    stopped on exit either way.
    """
    workspace = home / "workspace"
    for name, data in (files or {}).items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_bytes(data)
    workspace.mkdir(parents=True, exist_ok=True)
    (home / "tmp").mkdir(exist_ok=True)
    command = [require_claude(), "-p", prompt, "--dangerously-skip-permissions"]
    command += ["--allowedTools", "Grep,Glob", "--output-format", "json", *args]
    with serve(lanes) as (base_url, script):
        process = subprocess.Popen(
            command,
            cwd=workspace,
            env={**claude_env(home, base_url, tasks=tasks), **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        run = ClaudeRun(process, home, workspace, script)
        try:
            if wait:
                run.wait()
            yield run
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate(timeout=TIMEOUT)
