"""Codex's ``PermissionRequest`` hook, sans I/O: its thread, its call's id, its question.

Codex 0.171 runs ``PermissionRequest`` hooks in its approval path, before its
own prompt (``codex-rs/hooks/src/events/permission_request.rs``), for shell,
unified exec and network approvals, always as ``tool_name: "Bash"`` with
``tool_input.command`` (the command line) and ``tool_input.description`` (the
model's justification). Its input names no call id (the schema
``permission-request.command.input`` has ``turn_id`` but no ``tool_use_id``), so
the id is the rollout's newest ``function_call`` whose command is the one
asked — the call ``serve --watch`` shows — else a stable ``hook-<sha>``.
"""

from __future__ import annotations

import msgspec

from toolview.contract import ToolWaiting
from toolview.hosts.permission_hook import (
    PermissionRequest,
    fallback_call_id,
    newest_call,
    spelled_thread,
)

__all__ = ["call_id_in", "thread_of", "waiting_of"]


def thread_of(request: PermissionRequest) -> str:
    """The thread ``serve --watch`` feeds from this session's rollout: ``codex-<thread id>``."""
    return spelled_thread("codex", request)


def call_id_in(rollout_tail: bytes, request: PermissionRequest) -> str:
    """The call's id: the rollout's newest ``function_call`` running the asked command, else
    one made from the request."""
    command = request.tool_input.get("command")
    if not isinstance(command, str) or not command:
        return fallback_call_id(request)
    return newest_call(rollout_tail, request, lambda line: _matching_call(line, command))


def _matching_call(line: bytes, command: str) -> str | None:
    """The ``call_id`` of a ``function_call`` in one rollout line whose command is ``command``
    (``exec_command``'s ``cmd``, ``shell``'s ``command`` string or argv's last word)."""
    try:
        record = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return None  # a line cut by the tail's start, or half written
    payload = record.get("payload") if isinstance(record, dict) else None
    if not isinstance(payload, dict) or payload.get("type") != "function_call":
        return None
    try:
        args = msgspec.json.decode(payload.get("arguments") or "{}")
    except (msgspec.DecodeError, TypeError):
        return None
    asked = args.get("cmd", args.get("command")) if isinstance(args, dict) else None
    if isinstance(asked, list) and asked:
        asked = asked[-1]
    call = payload.get("call_id")
    return call if asked == command and isinstance(call, str) and call else None


def waiting_of(request: PermissionRequest, call_id: str) -> ToolWaiting:
    """The ``tool-waiting`` a person sees: the command that will run, and why the model says."""
    why = request.tool_input.get("description")
    question = f"Codex asks to run {request.tool_name}"
    return ToolWaiting(
        tool_call_id=call_id,
        tool_name=request.tool_name,
        args=request.tool_input,
        question=f"{question}: {why}" if isinstance(why, str) and why.strip() else question,
    )
