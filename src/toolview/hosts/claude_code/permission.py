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

import msgspec

from toolview.contract import ToolWaiting
from toolview.hosts.permission_hook import (
    INPUT_LIMIT,
    BadRequest,
    PermissionRequest,
    hook_output,
    newest_call,
    parse_request,
    spelled_thread,
)

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


def thread_of(request: PermissionRequest) -> str:
    """The thread ``serve --watch`` feeds from this session's file: ``claude-<session id>``."""
    return spelled_thread("claude", request)


def call_id_in(transcript_tail: bytes, request: PermissionRequest) -> str:
    """The call's id: the request's own, the transcript's newest matching ``tool_use``, else one
    made from the request (stable, so a hook run twice for one ask publishes one call)."""
    if request.tool_use_id:
        return request.tool_use_id
    return newest_call(transcript_tail, request, lambda line: _matching_use(line, request))


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
