"""Claude Code's ``structuredPatch`` (and a created file) as one unified diff.

Edit, MultiEdit and Write record the change as hunks
``{oldStart, oldLines, newStart, newLines, lines}`` whose ``lines`` already
carry the ``+``/``-``/space marks: only the headers are missing. A file that
was created has no hunks; its content is the diff, every line added. A hunk of
the wrong shape gives ``None``, and the caller keeps the tool's own text.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["created_diff", "unified_diff"]


def _headers(path: str, *, created: bool = False) -> list[str]:
    new = f"b{path}" if path.startswith("/") else f"b/{path}"
    old = "/dev/null" if created else ("a" + new[1:])
    return [f"--- {old}", f"+++ {new}"]


def _count(hunk: Mapping[str, object], key: str) -> int | None:
    value = hunk.get(key)
    return value if type(value) is int and value >= 0 else None


def _hunk(hunk: object) -> list[str] | None:
    if not isinstance(hunk, Mapping):
        return None
    numbers = [_count(hunk, key) for key in ("oldStart", "oldLines", "newStart", "newLines")]
    lines = hunk.get("lines")
    if None in numbers or not isinstance(lines, list):
        return None
    if not all(isinstance(line, str) and line[:1] in ("+", "-", " ", "\\") for line in lines):
        return None
    old_start, old_lines, new_start, new_lines = numbers
    return [f"@@ -{old_start},{old_lines} +{new_start},{new_lines} @@", *lines]


def unified_diff(patch: object, path: str) -> str | None:
    """A unified diff of ``path`` from ``structuredPatch``, or ``None`` if it is malformed."""
    if not isinstance(patch, list) or not patch:
        return None
    out = _headers(path)
    for hunk in patch:
        lines = _hunk(hunk)
        if lines is None:
            return None
        out.extend(lines)
    return "\n".join(out) + "\n"


def created_diff(content: str, path: str) -> str:
    """The diff that creates ``path`` with ``content``: every line added."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line is not a line
    out = _headers(path, created=True)
    if lines:
        out.append(f"@@ -0,0 +1,{len(lines)} @@")
        out.extend(f"+{line}" for line in lines)
    return "\n".join(out) + "\n"
