"""Claude Code's ``PermissionRequest`` hook, sans I/O: what it asks, and the answer it reads.

Why apart from the command (``toolview hook claude-code``): the mapping is
the part that must be right for a hostile or odd stdin, so it is a function
of bytes to values that a test drives without a server or a process. The
hook's stdin (Claude Code 2.1) carries ``session_id``, ``transcript_path``,
``tool_name``, ``tool_input`` — no ``tool_use_id`` (a later version may add
one, and it is used when there): the call's id is then looked up in the
transcript's tail, the newest ``tool_use`` of that tool with those arguments,
so the waiting lands on the very call the watcher shows.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

import msgspec

from toolview.contract import ToolWaiting
from toolview.contract.observations import Decision

__all__ = [
    "INPUT_LIMIT",
    "BadRequest",
    "PermissionRequest",
    "call_id_in",
    "hook_output",
    "parse_request",
    "thread_of",
    "waiting_of",
]

INPUT_LIMIT: Final = 1024 * 1024  # a hook's stdin: a tool's arguments, not a file's worth
_THREAD_ROOM: Final = 58  # as ``serve --watch`` spells a thread: 64 less a version's room


class BadRequest(ValueError):
    """The hook's stdin is not a ``PermissionRequest`` this hook can publish."""


class PermissionRequest(msgspec.Struct, frozen=True):
    """The fields the hook reads; any other field Claude Code sends is ignored."""

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


def thread_of(request: PermissionRequest) -> str:
    """The thread ``serve --watch`` feeds from this session's file: ``claude-<session id>``."""
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", f"claude-{request.session_id}")
    return spelled[:_THREAD_ROOM].strip(".") or "session"


def call_id_in(transcript_tail: bytes, request: PermissionRequest) -> str:
    """The call's id: the request's own, the transcript's newest matching ``tool_use``, else one
    made from the request (stable, so a hook run twice for one ask publishes one call)."""
    if request.tool_use_id:
        return request.tool_use_id
    for line in reversed(transcript_tail.splitlines()):
        found = _matching_use(line, request)
        if found is not None:
            return found
    digest = hashlib.sha256(msgspec.json.encode([request.session_id, request.tool_name]))
    digest.update(msgspec.json.encode(request.tool_input, order="sorted"))
    return f"hook-{digest.hexdigest()[:24]}"


def _matching_use(line: bytes, request: PermissionRequest) -> str | None:
    """The id of a ``tool_use`` block in one transcript line with the request's tool and input."""
    try:
        record = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return None  # a line cut by the tail's start, or half written
    message = record.get("message") if isinstance(record, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    for block in reversed(content if isinstance(content, list) else []):
        if (
            isinstance(block, dict)
            and block.get("type") == "tool_use"
            and block.get("name") == request.tool_name
            and block.get("input") == request.tool_input
            and isinstance(block.get("id"), str)
            and block["id"]
        ):
            return str(block["id"])
    return None


def waiting_of(request: PermissionRequest, call_id: str) -> ToolWaiting:
    """The ``tool-waiting`` a person sees: the tool and the arguments that will run."""
    return ToolWaiting(
        tool_call_id=call_id,
        tool_name=request.tool_name,
        args=request.tool_input,
        question=f"Claude Code asks to run {request.tool_name}",
    )


def hook_output(decision: Decision, message: str | None) -> bytes | None:
    """The hook's stdout for a decision; ``None`` for one this hook does not pass on (an
    ``answer``), so Claude Code's own prompt decides."""
    if decision == "allow":
        chosen: dict[str, object] = {"behavior": "allow"}
    elif decision == "deny":
        chosen = {"behavior": "deny", "message": message or "denied in toolview"}
    else:
        return None
    output = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": chosen}}
    return msgspec.json.encode(output) + b"\n"
