"""``apply_patch`` as one unified diff over every file it touched.

Where the changes come from, best first: the end record's ``changes`` (0.170+:
an ``item_completed`` ``FileChange`` item, ``{type: add|update|delete}`` per
path), the ``patch_apply_begin`` event's ``changes`` (older: ``{add|update|
delete: {...}}`` per path), or else the patch text the model sent, which
Codex's own format (``*** Update File: …``, ``@@ context``, `` ``/``-``/``+``
lines) turns into a unified diff without line numbers, as it has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from toolview.hosts.codex.fields import as_map, as_str

__all__ = ["changes_diff", "patch_text_diff"]

_ADD: Final = "*** Add File: "
_DELETE: Final = "*** Delete File: "
_UPDATE: Final = "*** Update File: "
_MOVE: Final = "*** Move to: "


def _relative(path: str, cwd: str | None) -> str:
    """``path`` under ``cwd`` written relative to it (as a diff header reads best)."""
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path.lstrip("/")


def _lines(content: str, sign: str) -> list[str]:
    return [sign + line for line in content.splitlines()]


def _file_diff(path: str, change: Mapping[str, object], cwd: str | None) -> list[str]:
    kind = as_str(change.get("type"))
    if kind is None and len(change) == 1:  # older: {"add": {...}} and the like
        kind, change = next(iter(change)), as_map(next(iter(change.values())))
    name = _relative(path, cwd)
    content = change.get("content")
    text = content if isinstance(content, str) else ""
    if kind == "add":
        count = len(text.splitlines())
        return ["--- /dev/null", f"+++ b/{name}", f"@@ -0,0 +1,{count} @@", *_lines(text, "+")]
    if kind == "delete":
        count = len(text.splitlines())
        head = ["--- a/" + name, "+++ /dev/null"]
        return head + ([f"@@ -1,{count} +0,0 @@", *_lines(text, "-")] if count else [])
    if kind == "update":
        moved = as_str(change.get("move_path"))
        target = _relative(moved, cwd) if moved else name
        unified = change.get("unified_diff")
        body = unified.splitlines() if isinstance(unified, str) else []
        return [f"--- a/{name}", f"+++ b/{target}", *body]
    return []


def changes_diff(changes: object, cwd: str | None) -> str | None:
    """The unified diff of a ``changes`` map (path → change), or None if there is none."""
    lines: list[str] = []
    for path, change in sorted(as_map(changes).items()):  # Codex's order varies run to run
        if isinstance(path, str) and isinstance(change, Mapping):
            lines.extend(_file_diff(path, change, cwd))
    return "\n".join(lines) + "\n" if lines else None


def patch_text_diff(patch: str) -> str | None:
    """The unified diff a Codex patch text describes, or None if it is not one."""
    lines: list[str] = []
    for line in patch.splitlines():
        if line.startswith(_ADD):
            lines += ["--- /dev/null", f"+++ b/{line[len(_ADD) :]}", "@@"]
        elif line.startswith(_DELETE):
            lines += [f"--- a/{line[len(_DELETE) :]}", "+++ /dev/null"]
        elif line.startswith(_UPDATE):
            name = line[len(_UPDATE) :]
            lines += [f"--- a/{name}", f"+++ b/{name}"]
        elif line.startswith(_MOVE) and lines:
            lines[-1] = f"+++ b/{line[len(_MOVE) :]}"
        elif line.startswith("@@") or (line[:1] in (" ", "-", "+") and lines):
            lines.append(line)
    return "\n".join(lines) + "\n" if lines else None
