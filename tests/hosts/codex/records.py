"""Rollout records built by hand, in the shapes Codex versions wrote them.

The 0.171 shapes are checked against the real CLI (tests/hosts/codex/real);
the older ones (``exec_command_end``, ``patch_apply_begin``/``_end``, the
JSON ``{output, metadata}`` shell output, ``collab_agent_spawn_end``) follow
codex-rs's protocol types of those versions.
"""

from __future__ import annotations

import json
from typing import Any

T0 = "2026-12-01T10:00:00.000Z"


def record(kind: str, payload: dict[str, Any], at: str = T0) -> dict[str, Any]:
    return {"timestamp": at, "type": kind, "payload": payload}


def meta(thread_id: str = "thread-1", **extra: Any) -> dict[str, Any]:
    return record("session_meta", {"id": thread_id, "cwd": "/w", "cli_version": "0.60.0", **extra})


def event(kind: str, **fields: Any) -> dict[str, Any]:
    return record("event_msg", {"type": kind, **fields})


def item(kind: str, **fields: Any) -> dict[str, Any]:
    return record("response_item", {"type": kind, **fields})


def user(text: str) -> dict[str, Any]:
    return item("message", role="user", content=[{"type": "input_text", "text": text}])


def call(call_id: str, name: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return item("function_call", call_id=call_id, name=name, arguments=json.dumps(args), **extra)


def output(call_id: str, text: str, kind: str = "function_call_output") -> dict[str, Any]:
    return item(kind, call_id=call_id, output=text)


def lines(*records: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)
