"""The built-in kinds a Cursor agent call's answer fits: a file, a diff, a plan, paths.

Why apart from ``tools``: each reads one tool's answer (or, for ``write`` and
``edit``, what the call asked) and returns None when the shape is not there —
an unexpected shape is the call's JSON text, never a crash.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Final

from toolview.contract import Descriptor, DiffProps, FileProps, TodoItem, TodoProps
from toolview.hosts.codex.fields import as_map, as_str

__all__ = ["diff_of", "file_of", "matches_of", "paths_of", "todo_of"]

_MAX_PATHS: Final = 2000
_STATUS: Final = {
    "pending": "pending",
    "in_progress": "in_progress",
    "completed": "completed",
    "cancelled": "cancelled",
}


def file_of(args: Mapping[str, object], answer: Mapping[str, object]) -> Descriptor | None:
    """``read``'s file: its path (asked) and content (answered)."""
    path, content = as_str(args.get("path")), answer.get("content")
    if path is None or not isinstance(content, str):
        return None
    return Descriptor("file", FileProps(path=path, content=content))


def diff_of(
    name: str, args: Mapping[str, object], answer: Mapping[str, object]
) -> Descriptor | None:
    """``write``'s new file, or ``edit``'s change, as a unified diff."""
    path = as_str(args.get("path")) or as_str(answer.get("path")) or "file"
    said = as_str(answer.get("diffString"))
    if said and "@@" in said:
        return Descriptor("diff", DiffProps(diff=said, path=path))
    old: object
    new: object
    if name == "write":
        old, new = "", args.get("fileText")
    else:
        replace = as_map(args.get("strReplace"))
        old, new = replace.get("oldText"), replace.get("newText")
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        "/dev/null" if name == "write" else f"a/{path}",
        f"b/{path}",
    )
    diff = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return Descriptor("diff", DiffProps(diff=diff, path=path)) if diff else None


def todo_of(args: Mapping[str, object], answer: Mapping[str, object]) -> Descriptor | None:
    """``todo``'s plan: each item's text and status (``TODO_STATUS_COMPLETED`` or
    ``completed``); an item in any other state is left out."""
    todos = answer.get("todos") if isinstance(answer.get("todos"), list) else args.get("todos")
    items: list[TodoItem] = []
    for todo in todos if isinstance(todos, list) else []:
        todo = as_map(todo)
        raw = (as_str(todo.get("status")) or "").lower().removeprefix("todo_status_")
        content, status = as_str(todo.get("content")), _STATUS.get(raw)
        if content is not None and status is not None:
            items.append(TodoItem(content=content, status=status))  # type: ignore[arg-type]
    return Descriptor("todo", TodoProps(items=items)) if items else None


def paths_of(answer: Mapping[str, object]) -> list[list[object]]:
    """``glob``'s ``files``, or ``ls``'s tree walked (``directoryTreeRoot``), as rows."""
    files = answer.get("files")
    if isinstance(files, list):
        return [[path] for path in files[:_MAX_PATHS] if isinstance(path, str)]
    rows: list[list[object]] = []
    stack = [as_map(answer.get("directoryTreeRoot"))]
    while stack and len(rows) < _MAX_PATHS:
        folder = stack.pop()
        base = as_str(folder.get("absPath")) or ""
        children = folder.get("childrenFiles")
        for file in children if isinstance(children, list) else []:
            name = as_str(as_map(file).get("name"))
            if name is not None:
                rows.append([f"{base.rstrip('/')}/{name}" if base else name])
        dirs = folder.get("childrenDirs")
        stack.extend(
            as_map(child) for child in (dirs if isinstance(dirs, list) else [])[:_MAX_PATHS]
        )
    return rows[:_MAX_PATHS]


def matches_of(answer: Mapping[str, object]) -> list[list[object]]:
    """``grep``'s matches (community-described: ``workspaceResults`` → ``content.matches``
    → each file's ``matches``) as ``[file, line, text]`` rows; none when it is not that."""
    rows: list[list[object]] = []
    for found in as_map(answer.get("workspaceResults")).values():
        files = as_map(as_map(found).get("content")).get("matches")
        for file in files if isinstance(files, list) else []:
            path, lines = as_str(as_map(file).get("file")), as_map(file).get("matches")
            for hit in lines if isinstance(lines, list) and path else []:
                number, text = as_map(hit).get("lineNumber"), as_map(hit).get("content")
                if type(number) is int and isinstance(text, str):
                    rows.append([path, number, text])
                if len(rows) >= _MAX_PATHS:
                    return rows
    return rows
