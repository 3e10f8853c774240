"""One OpenCode ``tool`` part → its call and, once it has ended, its result.

A tool part is written again each time its ``state`` moves (``pending`` →
``running`` → ``completed`` or ``error``); the database holds the latest.
``completed`` keeps ``output`` and ``metadata``, ``error`` keeps ``error``.
The kind comes from the tool: ``bash`` → ``shell``, whose exit code is only in
``metadata.exit`` (OpenCode records a failed command as ``completed``: a
non-zero exit is shown as the failure it is), ``read`` → ``file``,
``read`` (its ``metadata.display``) and ``write`` (its content) → ``file``,
``edit`` → ``diff`` (``metadata.diff``), ``todowrite`` → ``todo``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Final

import msgspec

from toolview.contract import (
    Descriptor,
    DiffProps,
    FileProps,
    ShellProps,
    TodoItem,
    TodoProps,
    ToolCall,
    ToolResult,
)
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.sessions import final_result

__all__ = ["ENDED", "call_of", "ms_at", "result_of"]

ENDED: Final = frozenset({"completed", "error"})
_TODO: Final = frozenset({"pending", "in_progress", "completed", "cancelled"})


def ms_at(value: object) -> str | None:
    """Milliseconds since the epoch (OpenCode's times) as the contract's timestamp."""
    if type(value) is not int or not 0 < value < 1 << 45:
        return None
    at = datetime.fromtimestamp(value / 1000, UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def call_of(part: Mapping[str, object]) -> ToolCall | None:
    """The call a tool part makes; None without a call id and a tool name."""
    call_id, name = as_str(part.get("callID")), as_str(part.get("tool"))
    if call_id is None or name is None:
        return None
    args = dict(as_map(as_map(part.get("state")).get("input")))
    return ToolCall(tool_call_id=call_id, tool_name=name, args=args)


def result_of(call: ToolCall, state: Mapping[str, object]) -> ToolResult:
    """The result of an ended call (``state.status`` ``completed`` or ``error``)."""
    failed = state.get("status") != "completed"
    text = as_str(state.get("error") if failed else state.get("output")) or ""
    meta = as_map(state.get("metadata"))
    descriptor = None if failed else _kind(call, meta, text)
    code = meta.get("exit")
    if call.tool_name == "bash" and type(code) is int and code != 0:
        failed = True  # "completed" with a non-zero exit: the failure it is
    ended = ms_at(as_map(state.get("time")).get("end"))
    return final_result(call, text, failed=failed, descriptor=descriptor, at=ended)


def _kind(call: ToolCall, meta: Mapping[str, object], text: str) -> Descriptor | None:
    name, args = call.tool_name, call.args
    if name == "bash":
        code = meta.get("exit")
        output = as_str(meta.get("output"))
        props = ShellProps(
            command=as_str(args.get("command")) or "",
            exit_code=code if type(code) is int else None,
            stdout=text if output is None else output,
            stderr="",
        )
        return Descriptor("shell", props)
    if name in ("read", "write"):
        return _file(name, args, as_map(meta.get("display")))
    if name == "edit":
        diff = as_str(meta.get("diff"))
        path = as_str(args.get("filePath"))
        if diff is None:
            return None
        return Descriptor("diff", DiffProps(diff=diff, path=path or msgspec.UNSET))
    if name == "todowrite":
        return _todos(args.get("todos"))
    return None


def _file(
    name: str, args: Mapping[str, object], display: Mapping[str, object]
) -> Descriptor | None:
    """A file read (its ``metadata.display``: the lines shown, from ``lineStart``) or written
    whole (its ``content``)."""
    if name == "write":
        path, content = as_str(args.get("filePath")), as_str(args.get("content"))
        start: object = 1
    else:
        path, content, start = (
            as_str(display.get("path")),
            as_str(display.get("text")),
            display.get("lineStart"),
        )
        if display.get("type") != "file" or display.get("truncated") is not False:
            return None
    if path is None or content is None:
        return None
    first = start if type(start) is int and start > 0 else msgspec.UNSET
    return Descriptor("file", FileProps(path=path, content=content, start_line=first))


def _todos(todos: object) -> Descriptor | None:
    """``todowrite``'s list as a checklist; None when an item does not fit one."""
    items: list[TodoItem] = []
    for todo in todos if isinstance(todos, list) else []:
        text, status = as_str(as_map(todo).get("content")), as_map(todo).get("status")
        if text is None or not isinstance(status, str) or status not in _TODO:
            return None
        items.append(TodoItem(content=text, status=status))  # type: ignore[arg-type]
    return Descriptor("todo", TodoProps(items=items)) if items else None
