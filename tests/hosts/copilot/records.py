"""Copilot CLI events as 1.0.102 writes them (its ``schemas/session-events.schema.json``),
built for the tests that need a session no real run makes: hostile lines, unknown types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["event", "session", "write"]

SESSION = "0f2b6c3e-7a1d-4e5f-9b8c-1d2e3f4a5b6c"


def event(kind: str, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """One event line's record: ``{type, data, id, timestamp, parentId}``."""
    return {"type": kind, "data": data, "id": "e", "timestamp": "2026-12-08T01:00:00.000Z",
            "parentId": None, **extra}  # fmt: skip


def session(*middle: dict[str, Any], command: str = "echo hi", output: str = "hi") -> list[Any]:
    """A session: its start, a prompt, ``middle``, then one ``bash`` call and its answer."""
    start = {"sessionId": SESSION, "selectedModel": "gpt-4.1", "context": {"cwd": "/w/proj"}}
    request = {"toolCallId": "b1", "name": "bash", "arguments": {"command": command}}
    answer = {"content": f"{output}\n<shellId: 0 completed with exit code 0>"}
    done = {
        "toolCallId": "b1",
        "success": True,
        "shellExecution": {"exitCode": 0},
        "result": answer,
    }
    return [
        event("session.start", start),
        event("user.message", {"content": "go"}),
        *middle,
        event("assistant.message", {"messageId": "m", "content": "", "toolRequests": [request]}),
        event("tool.execution_start", {"toolCallId": "b1", "toolName": "bash"}),
        event("tool.execution_complete", done),
    ]


def write(folder: Path, lines: list[Any]) -> Path:
    """``lines`` (records, or raw bytes as they are) as ``<folder>/<session>/events.jsonl``."""
    path = folder / SESSION / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = [x if isinstance(x, bytes) else json.dumps(x).encode() for x in lines]
    path.write_bytes(b"\n".join(raw) + b"\n")
    return path
