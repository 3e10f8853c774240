"""One pi tool result (live ``result``/``partialResult`` or a stored
``toolResult`` message) as a toolview observation.

Live and stored go through this one function, so a call's final observation
is the same whichever way it was read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, ToolRefused, ToolResult
from toolview.hosts.pi.kinds import to_toolview_kinds
from toolview.hosts.pi.truncation import cut_mode, to_truncation

__all__ = ["REFUSAL_GUARD", "PiFormatError", "content_text", "refusal", "tool_result"]

REFUSAL_GUARD: Final = "pi extension"


class PiFormatError(ValueError):
    """pi's data broke its own format; the message says where and how."""


def content_text(content: object) -> str:
    """The text of pi content: a string, or text blocks joined by newlines.

    An image block is named, never inlined, so it is not lost from the text.
    """
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    pieces: list[str] = []
    for block in content:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            pieces.append(block["text"])
        elif block.get("type") == "image":
            mime = block.get("mimeType")
            pieces.append(f"[image: {mime if isinstance(mime, str) else 'unknown type'}]")
    return "\n".join(pieces)


def require_id(value: object, what: str) -> str:
    """A non-empty string id, or ``PiFormatError`` naming the field."""
    if not isinstance(value, str) or not value:
        raise PiFormatError(f"{what} is missing or not a non-empty string")
    return value


def tool_result(
    call_id: str,
    tool_name: str,
    payload: object,
    *,
    complete: bool,
    is_error: object,
    args: Mapping[str, object] | None = None,
    kinds: bool = False,
) -> ToolResult:
    """A ``tool-result`` with the floor descriptor (kind ``pi.tool.<name>``)."""
    if not isinstance(is_error, bool):
        raise PiFormatError(f"isError of call {call_id!r} is not a boolean")
    result = payload if isinstance(payload, Mapping) else {}
    details = result.get("details")
    raw_truncation = details.get("truncation") if isinstance(details, Mapping) else None
    truncation = to_truncation(raw_truncation, cut_mode(tool_name))
    descriptor = Descriptor(
        kind=f"pi.tool.{tool_name}",
        props={},
        truncated=msgspec.UNSET if truncation is None else truncation,
    )
    observation = ToolResult(
        tool_call_id=call_id,
        tool_name=tool_name,
        text=content_text(result.get("content")),
        complete=complete,
        is_error=is_error,
        descriptor=descriptor,
    )
    if not kinds:
        return observation
    return to_toolview_kinds(observation, args=args or {}, details=details)


def refusal(call_id: str, tool_name: str, reason: object) -> ToolRefused:
    """A ``tool-refused``: an extension's ``tool_call`` handler blocked the call."""
    text = reason if isinstance(reason, str) else "blocked by a pi extension"
    return ToolRefused(tool_call_id=call_id, tool_name=tool_name, reason=text, guard=REFUSAL_GUARD)
