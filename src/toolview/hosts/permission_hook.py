"""A coding agent's ``PermissionRequest`` hook, sans I/O: the part Claude Code and Codex share.

Why one home: Codex 0.171's ``PermissionRequest`` hook was made to Claude
Code's shape (``codex-rs/hooks/src/events/permission_request.rs``): the same
stdin fields (``session_id``, ``transcript_path``, ``tool_name``,
``tool_input``; Codex adds ``turn_id``), the same stdout
(``hookSpecificOutput.decision.behavior`` allow / deny with a ``message``), and
the same rule that an empty stdout decides nothing. What differs per agent —
the thread ``serve --watch`` names, where the call's id is found, the question
— lives in each host's ``permission`` module.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Final

import msgspec

from toolview.contract.observations import Decision

__all__ = [
    "INPUT_LIMIT",
    "BadRequest",
    "PermissionRequest",
    "fallback_call_id",
    "hook_output",
    "newest_call",
    "parse_request",
    "spelled_thread",
]

INPUT_LIMIT: Final = 1024 * 1024  # a hook's stdin: a tool's arguments, not a file's worth
_THREAD_ROOM: Final = 58  # as ``serve --watch`` spells a thread: 64 less a version's room


class BadRequest(ValueError):
    """The hook's stdin is not a ``PermissionRequest`` this hook can publish."""


class PermissionRequest(msgspec.Struct, frozen=True):
    """The fields the hook reads; any other field the agent sends is ignored."""

    session_id: str
    tool_name: str
    tool_input: dict[str, object] = {}
    hook_event_name: str = "PermissionRequest"
    transcript_path: str | None = None
    tool_use_id: str | None = None


def parse_request(raw: bytes) -> PermissionRequest:
    """The request in ``raw``, or ``BadRequest`` saying why not (too big, not JSON, wrong shape)."""
    if len(raw) > INPUT_LIMIT:
        raise BadRequest(f"the hook's input is over {INPUT_LIMIT} bytes")
    try:
        request = msgspec.json.decode(raw, type=PermissionRequest)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise BadRequest(f"not a PermissionRequest hook's JSON: {exc}") from None
    if request.hook_event_name != "PermissionRequest":
        raise BadRequest(f"a {request.hook_event_name[:40]!r} hook, not PermissionRequest")
    if not request.session_id.strip() or not request.tool_name.strip():
        raise BadRequest("the hook's input names no session or no tool")
    return request


def spelled_thread(prefix: str, request: PermissionRequest) -> str:
    """``<prefix>-<session id>`` spelled as ``serve --watch`` spells the session's thread."""
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", f"{prefix}-{request.session_id}")
    return spelled[:_THREAD_ROOM].strip(".") or "session"


def fallback_call_id(request: PermissionRequest) -> str:
    """An id made from the request when the transcript does not name the call: stable, so a
    hook run twice for one ask publishes one call."""
    digest = hashlib.sha256(msgspec.json.encode([request.session_id, request.tool_name]))
    digest.update(msgspec.json.encode(request.tool_input, order="sorted"))
    return f"hook-{digest.hexdigest()[:24]}"


def newest_call(
    tail: bytes, request: PermissionRequest, match: Callable[[bytes], str | None]
) -> str:
    """The id ``match`` finds in the newest line of ``tail`` that has one (the transcript's
    lines are newest last), else ``fallback_call_id``."""
    for line in reversed(tail.splitlines()):
        found = match(line)
        if found is not None:
            return found
    return fallback_call_id(request)


def hook_output(decision: Decision, message: str | None) -> bytes | None:
    """The hook's stdout for a decision; ``None`` for one this hook does not pass on (an
    ``answer``), so the agent's own prompt decides."""
    if decision == "allow":
        chosen: dict[str, object] = {"behavior": "allow"}
    elif decision == "deny":
        chosen = {"behavior": "deny", "message": message or "denied in toolview"}
    else:
        return None
    output = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": chosen}}
    return msgspec.json.encode(output) + b"\n"
