"""pi's ``TruncationResult`` as toolview's ``Truncation``: data, never prose.

pi counts lines with ``text.split("\\n")``, so a text ending in a newline has
one more "line" than it has: the empty piece after the last newline. Where the
shown window includes the end of the output (pi's tail truncation, used by
``bash``), the window's own ``content`` tells whether the output ends in a
newline, and both counts are corrected. Where pi cut the head of a file
(``read``), nothing it records says whether the file ends in a newline, so the
line total could be off by one: the result is reported in bytes, which pi
counts exactly. ``grep``/``find``/``ls`` join lines without a trailing newline,
so their line counts are exact as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

from toolview.contract import Truncation

__all__ = ["CutMode", "cut_mode", "to_truncation"]

CutMode: TypeAlias = Literal["tail", "exact", "bytes"]

_MODES: Final[Mapping[str, CutMode]] = {
    "bash": "tail",
    "grep": "exact",
    "find": "exact",
    "ls": "exact",
}


def cut_mode(tool_name: str) -> CutMode:
    """How pi's line counts for this tool are to be read (see the module docstring)."""
    return _MODES.get(tool_name, "bytes")


def _count(raw: Mapping[str, object], key: str) -> int | None:
    value = raw.get(key)
    if type(value) is not int or value < 0:  # bool is not a count; neither is 3.0
        return None
    return value


def to_truncation(raw: object, mode: CutMode) -> Truncation | None:
    """The ``Truncation`` for pi's ``details.truncation``, or ``None``.

    ``None`` when pi did not truncate, or when the record is malformed (a
    wrong type is rejected, never coerced).
    """
    if not isinstance(raw, Mapping) or raw.get("truncated") is not True:
        return None
    by = raw.get("truncatedBy")
    if by == "lines" and mode != "bytes":
        shown, total = _count(raw, "outputLines"), _count(raw, "totalLines")
        content = raw.get("content")
        if mode == "tail" and isinstance(content, str) and content.endswith("\n"):
            shown = None if shown is None else max(shown - 1, 0)
            total = None if total is None else max(total - 1, 0)
        unit: Literal["lines", "bytes"] = "lines"
    elif by in ("lines", "bytes"):
        shown, total = _count(raw, "outputBytes"), _count(raw, "totalBytes")
        unit = "bytes"
    else:
        return None
    if shown is None or total is None or shown > total:
        return None
    return Truncation(shown=shown, total=total, unit=unit)
