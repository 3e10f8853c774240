"""Hand-made Claude Code records, in the shapes the real CLI 2.1.197 writes (see real/README.md).

Small builders, so each test states only what it is about: a prompt, an
assistant turn with tool calls, the user record carrying one tool result and
its ``toolUseResult``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

SESSION = "5e551011-0000-4000-8000-000000000001"
Record = dict[str, Any]


class Clock:
    """Timestamps one hundredth of a second apart, in the CLI's own form."""

    def __init__(self) -> None:
        self.tick = 0

    def __call__(self) -> str:
        self.tick += 1
        return f"2026-06-15T10:00:{self.tick // 100:02d}.{self.tick % 100:02d}0Z"


CLOCK = Clock()


def _record(kind: str, message: dict[str, Any], **extra: Any) -> Record:
    record: Record = {
        "type": kind,
        "uuid": f"uuid-{CLOCK.tick}-{kind}",
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SESSION,
        "timestamp": CLOCK(),
        "message": message,
    }
    record.update(extra)
    return record


def prompt(text: str, **extra: Any) -> Record:
    return _record("user", {"role": "user", "content": text}, **extra)


def assistant(*blocks: dict[str, Any], message_id: str = "msg_1", **usage: int) -> Record:
    tokens = {"input_tokens": 100, "output_tokens": 20, **usage}
    message = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-8",
        "content": list(blocks),
        "stop_reason": "tool_use",
        "usage": tokens,
    }
    return _record("assistant", message)


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def thinking(value: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": value, "signature": "sig"}


def tool_use(call_id: str, name: str, **args: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": args}


def call(call_id: str, name: str, message_id: str | None = None, **args: Any) -> Record:
    return assistant(tool_use(call_id, name, **args), message_id=message_id or f"msg_{call_id}")


def result(
    call_id: str, content: Any, detail: Any = None, *, is_error: bool = False, **extra: Any
) -> Record:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error:
        block["is_error"] = True
    if detail is not None:
        extra["toolUseResult"] = detail
    return _record("user", {"role": "user", "content": [block]}, **extra)


def image_block(data: str = "iVBORw0KGgo=", mime: str = "image/png") -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}


def jsonl(records: Iterable[Any]) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def write_session(folder: Path, records: Iterable[Any], name: str = SESSION) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_bytes(jsonl(records))
    return path
