"""Cursor agent stream-json events for the tests, shaped as cursor.com's output-format page
shows them (fixtures/README.md names the sources)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

SESSION: Final = "0b9d7c1e-2f34-4a56-8b78-9c0d1e2f3a4b"
RUN: Final = Path(__file__).parent / "fixtures" / "run.jsonl"


def init(**extra: object) -> dict[str, object]:
    """The ``system``/``init`` event every run starts with."""
    base = {"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/w"}
    return {**base, "session_id": SESSION, "model": "gpt-5", "permissionMode": "default", **extra}


def said(role: str, text: str) -> dict[str, object]:
    """A ``user`` prompt or an ``assistant`` message."""
    message = {"role": role, "content": [{"type": "text", "text": text}]}
    return {"type": role, "message": message, "session_id": SESSION}


def call(call_id: str, key: str, args: object, result: object) -> list[dict[str, object]]:
    """A call's ``started`` and ``completed`` events."""
    started = {"type": "tool_call", "subtype": "started", "call_id": call_id}
    done = {**started, "subtype": "completed"}
    return [
        {**started, "tool_call": {key: {"args": args}}, "session_id": SESSION},
        {**done, "tool_call": {key: {"args": args, "result": result}}, "session_id": SESSION},
    ]


def lines(*events: dict[str, object]) -> bytes:
    """The events as the CLI prints them: one compact JSON object a line."""
    return b"".join(json.dumps(e, separators=(",", ":")).encode() + b"\n" for e in events)
