"""The Anthropic Messages API's answer to one scripted turn: a message, or its SSE events.

What the scripted server (``scripted_anthropic``) sends the real Claude Code
CLI: thinking, text and ``tool_use`` blocks, streamed the way the API streams
them (``message_start``, ``content_block_start``/``_delta``/``_stop`` with
``thinking_delta`` + ``signature_delta``, ``text_delta`` and
``input_json_delta``, ``message_delta`` with the usage, ``message_stop``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["USAGE", "ToolUse", "Turn", "sse_events", "whole_message"]


@dataclass(frozen=True)
class ToolUse:
    """One scripted tool call: its id, the tool's name and its input."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """One scripted assistant turn: thinking, then text, then tool calls.

    ``gate``, when set, holds the answer until the test sets the event (a live
    test lets the agent run up to here, then checks what a follower saw).
    """

    text: str = ""
    thinking: str = ""
    calls: tuple[ToolUse, ...] = ()
    gate: threading.Event | None = None


def _blocks(turn: Turn) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if turn.thinking:
        blocks.append({"type": "thinking", "thinking": turn.thinking, "signature": "c2NyaXB0ZWQ="})
    if turn.text:
        blocks.append({"type": "text", "text": turn.text})
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.input} for c in turn.calls
    ]
    return blocks


USAGE = {"input_tokens": 120, "output_tokens": 30, "cache_read_input_tokens": 40}


def whole_message(turn: Turn, model: str, number: int) -> dict[str, Any]:
    return {
        "id": f"msg_scripted_{number:04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": _blocks(turn),
        "stop_reason": "tool_use" if turn.calls else "end_turn",
        "stop_sequence": None,
        "usage": USAGE,
    }


def _event(name: str, data: Mapping[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n".encode()


def _pieces(text: str, size: int) -> Iterator[str]:
    return (text[start : start + size] for start in range(0, len(text), size))


def _block_events(index: int, block: Mapping[str, Any]) -> Iterator[bytes]:
    kind = block["type"]
    empty = {"thinking": {"thinking": "", "signature": ""}, "text": {"text": ""}}
    start = {**block, "input": {}} if kind == "tool_use" else {"type": kind, **empty[kind]}
    yield _event("content_block_start", {"index": index, "content_block": start})
    if kind == "thinking":
        for piece in _pieces(block["thinking"], 24):
            delta = {"type": "thinking_delta", "thinking": piece}
            yield _event("content_block_delta", {"index": index, "delta": delta})
        delta = {"type": "signature_delta", "signature": block["signature"]}
        yield _event("content_block_delta", {"index": index, "delta": delta})
    elif kind == "text":
        for piece in _pieces(block["text"], 24):
            delta = {"type": "text_delta", "text": piece}
            yield _event("content_block_delta", {"index": index, "delta": delta})
    else:
        for piece in _pieces(json.dumps(block["input"]), 40):
            delta = {"type": "input_json_delta", "partial_json": piece}
            yield _event("content_block_delta", {"index": index, "delta": delta})
    yield _event("content_block_stop", {"index": index})


def sse_events(turn: Turn, model: str, number: int = 0) -> Iterator[bytes]:
    """The SSE events of one turn, split into deltas the way the API streams.

    ``number`` makes the message id unique: the CLI merges records that share
    a message id into one message, as the API never reuses one.
    """
    message = whole_message(turn, model, number)
    head = {**message, "content": [], "stop_reason": None, "usage": {**USAGE, "output_tokens": 1}}
    yield _event("message_start", {"message": head})
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield _event("message_delta", {"delta": delta, "usage": {"output_tokens": 30}})
    yield _event("message_stop", {})
