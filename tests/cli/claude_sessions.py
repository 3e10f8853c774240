"""Small hand-made Claude Code sessions for the command tests, record by record.

The records have the shape Claude Code 2.1.x writes to
``~/.claude/projects/<project>/<session>.jsonl`` (one JSON object a line:
``type``, ``sessionId``, ``cwd``, ``timestamp``, ``message`` with Anthropic
content blocks; a tool result is a ``user`` record with a ``tool_result``
block and ``toolUseResult``), cut to the fields the tests need. They are
built here rather than stored so a test can write a session line by line
(``show --follow``) and plant a secret where it wants.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "SECRET",
    "assistant_text",
    "bash_call",
    "bash_result",
    "session",
    "toolview",
    "user",
    "write",
]

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape: fake


def _record(kind: str, session_id: str, second: int, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/work/proj",
        "sessionId": session_id,
        "version": "2.1.197",
        "gitBranch": "main",
        "type": kind,
        "message": message,
        "uuid": f"{session_id[:8]}-{kind}-{second}",
        "timestamp": f"2026-12-01T10:{second // 60:02d}:{second % 60:02d}.000Z",
    }


def user(session_id: str, second: int, text: str) -> dict[str, Any]:
    return _record("user", session_id, second, {"role": "user", "content": text})


def assistant_text(session_id: str, second: int, text: str) -> dict[str, Any]:
    message = {
        "id": f"msg_{second}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return _record("assistant", session_id, second, message)


def bash_call(session_id: str, second: int, call_id: str, command: str) -> dict[str, Any]:
    block = {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}
    message = {
        "id": f"msg_{second}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [block],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return _record("assistant", session_id, second, message)


def bash_result(
    session_id: str, second: int, call_id: str, out: str, *, error: bool = False
) -> dict[str, Any]:
    block = {"tool_use_id": call_id, "type": "tool_result", "content": out, "is_error": error}
    record = _record("user", session_id, second, {"role": "user", "content": [block]})
    record["toolUseResult"] = {
        "stdout": "" if error else out,
        "stderr": out if error else "",
        "interrupted": False,
        "isImage": False,
    }
    return record


def session(session_id: str, prompt: str, calls: int = 2, failing: int = 0) -> list[bytes]:
    """A session: the prompt, ``calls`` Bash calls (the last ``failing`` of them fail), an
    answer — each record one line."""
    records = [user(session_id, 0, prompt)]
    for n in range(calls):
        call_id = f"toolu_{session_id[:4]}{n:04d}"
        failed = n >= calls - failing
        out = f"exit 1: step {n} failed" if failed else f"step {n} ok\n"
        records.append(bash_call(session_id, 2 * n + 1, call_id, f"make step-{n}"))
        records.append(bash_result(session_id, 2 * n + 2, call_id, out, error=failed))
    records.append(assistant_text(session_id, 2 * calls + 1, "All done."))
    return [json.dumps(record).encode() + b"\n" for record in records]


def write(path: Path, lines: list[bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(lines))
    return path


def toolview(home: Path, *words: str) -> subprocess.CompletedProcess[str]:
    """The real command in a child process, ``HOME`` the folder holding the sessions."""
    return subprocess.run(
        [sys.executable, "-m", "toolview", *words],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")},
    )
