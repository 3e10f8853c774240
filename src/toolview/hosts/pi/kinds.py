"""The optional mapping of pi's known tools onto toolview's own kinds.

The floor descriptor (``pi.tool.<name>``, truncation only) is what the host
always produces; this mapping is applied on request, here in the host, so no
renderer ever keys on a vendor's tool name. Whatever does not fit a kind's
props stays at the floor and shows as honest text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, DiffProps, FileProps, ShellProps, TableProps, ToolResult
from toolview.contract.props import KindProps
from toolview.hosts.pi.pidiff import to_unified_diff

__all__ = ["KIND_MAPPERS", "to_toolview_kinds"]

Mapper = Callable[[ToolResult, Mapping[str, object], object], KindProps | None]

_EXIT = re.compile(r"Command exited with code (\d+)\Z")
_NOTE = re.compile(r"^\[.*\]$")


def _shell(result: ToolResult, args: Mapping[str, object], _details: object) -> ShellProps | None:
    command = args.get("command")
    if not isinstance(command, str):
        return None
    exit_code: int | None = None
    if result.complete:
        match = _EXIT.search(result.text)
        exit_code = int(match.group(1)) if match else (None if result.is_error else 0)
    # pi merges stdout and stderr into one stream: it is all `stdout` here.
    return ShellProps(command=command, exit_code=exit_code, stdout=result.text, stderr="")


def _read(result: ToolResult, args: Mapping[str, object], _details: object) -> FileProps | None:
    path, offset = args.get("path"), args.get("offset")
    if not isinstance(path, str) or result.is_error or result.text.startswith("[image"):
        return None
    start = offset if type(offset) is int and offset > 0 else msgspec.UNSET
    return FileProps(path=path, content=result.text, start_line=start)


def _write(result: ToolResult, args: Mapping[str, object], _details: object) -> FileProps | None:
    path, content = args.get("path"), args.get("content")
    if not isinstance(path, str) or not isinstance(content, str) or result.is_error:
        return None
    return FileProps(path=path, content=content)


def _edit(result: ToolResult, args: Mapping[str, object], details: object) -> DiffProps | None:
    path = args.get("path")
    raw = details.get("diff") if isinstance(details, Mapping) else None
    if not isinstance(path, str) or not isinstance(raw, str) or result.is_error:
        return None
    unified = to_unified_diff(raw, path)
    return None if unified is None else DiffProps(diff=unified, path=path)


def _rows(text: str) -> list[str] | None:
    lines = [line for line in text.split("\n") if line]
    if any(_NOTE.match(line) for line in lines):
        return None  # pi added a note (a limit was hit): the text says it, a table would drop it
    return lines


def _listing(column: str) -> Mapper:
    def mapper(
        result: ToolResult, _args: Mapping[str, object], _details: object
    ) -> TableProps | None:
        rows = None if result.is_error else _rows(result.text)
        if rows is None:
            return None
        return TableProps(columns=[column], rows=[[row] for row in rows])

    return mapper


_GREP_LINE = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+):|-(?P<ctx>\d+)-) ?(?P<text>.*)$")


def _grep(result: ToolResult, _args: Mapping[str, object], _details: object) -> TableProps | None:
    rows = None if result.is_error else _rows(result.text)
    if rows is None:
        return None
    table: list[list[object]] = []
    for row in rows:
        match = _GREP_LINE.match(row)
        if match is None:
            return None
        line = int(match.group("line") or match.group("ctx"))
        table.append([match.group("path"), line, match.group("text")])
    return TableProps(columns=["path", "line", "text"], rows=table)


KIND_MAPPERS: Final[Mapping[str, tuple[str, Mapper]]] = {
    "bash": ("shell", _shell),
    "read": ("file", _read),
    "write": ("file", _write),
    "edit": ("diff", _edit),
    "grep": ("table", _grep),
    "find": ("table", _listing("path")),
    "ls": ("table", _listing("entry")),
}


def to_toolview_kinds(
    result: ToolResult, *, args: Mapping[str, object], details: object = None
) -> ToolResult:
    """``result`` with a toolview kind where pi's tool maps onto one, else unchanged."""
    entry = KIND_MAPPERS.get(result.tool_name)
    if entry is None:
        return result
    kind, mapper = entry
    mapped = mapper(result, args, details)
    if mapped is None:
        return result
    truncated = (
        result.descriptor.truncated if isinstance(result.descriptor, Descriptor) else msgspec.UNSET
    )
    descriptor = Descriptor(kind=kind, props=mapped, truncated=truncated)
    return msgspec.structs.replace(result, descriptor=descriptor)
