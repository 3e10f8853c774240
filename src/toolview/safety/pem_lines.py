"""The lines of a private-key block, and where a block with no ``END`` stops.

A key's lines may be real or ``\\n``-escaped (a key in a JSON string), may be
indented and may carry one diff or quote marker. A block whose ``END`` a
window dropped is hidden to the end of its key material, not to the end of
the text (the output after it stays readable): headers, then base64 lines
as wide as the first, then at most one shorter last line. Whether a leading
``+`` is a diff's marker or the line's first base64 character decides that
width: one body line in 64 starts with ``+``.
"""

from __future__ import annotations

import re

from toolview.safety.patterns import LazyRegex

__all__ = ["B64", "HEADER", "MARKER", "NL", "SEP", "material_end"]

NL = r"(?:\r?\n|(?:\\r)?\\n)"
"""A line break, or one escaped in a JSON string."""
MARKER = r"[-+>|#*\"']"
"""A diff or quote marker; only ``+`` is also base64."""
SEP = rf"(?:[ \t]*+{NL}[ \t]*+(?:{MARKER}[ \t]*+)?|[ \t]++)"
"""A line break with the next line's indentation and marker, or spaces."""
HEADER = r"(?:Proc-Type|DEK-Info|Version|Comment|Hash):[^\r\n\\]*+"
B64 = r"[A-Za-z0-9+/=]++"

_ITEM = LazyRegex(
    rf"(?:[ \t]*+{NL}(?P<indent>[ \t]*+)(?:(?P<marker>{MARKER})[ \t]*+)?|[ \t]++)"
    rf"(?:(?P<header>{HEADER})|(?P<b64>{B64}))?"
)
_LINE_END = LazyRegex(r"[ \t]*+(?:[\r\n\"']|\\[rn]|\Z)")
_SHORTEST = 15  # a first body line is full width (64, 70, 76): "The" is prose


def material_end(hay: str, body: tuple[int, int], fence: int) -> int:
    """Where the key material of a block without ``END`` stops, in ``body``.

    Headers come first; then base64 lines all as wide as the first, and at
    most one shorter last line. A wider line, a second short one or anything
    else is ordinary output again; so is a short line (first or last) that
    does not end its line (``npm WARN ...``, ``The key was...``); a short
    first line that does is a key cut inside its first line. ``fence``: where
    the block's ``BEGIN`` is (its line tells whether the block is a diff's).
    """
    end, width, diff = body[0], 0, _diff_indent(hay, fence)
    for item in _ITEM.finditer(hay, *body):
        header, size = item.group("header"), _width(item, diff)
        if header is not None and width == 0:
            end = item.end()
        elif size > _SHORTEST and width in (0, size):
            end, width = item.end(), size
        elif size and (size < width or width == 0):
            if _LINE_END.match(hay, item.end()):
                end = item.end()
            break
        elif header is not None or size:
            break
    return end


def _width(item: re.Match[str], diff: str | None) -> int:
    """The width of the base64 line ``item`` holds (0: none).

    A leading ``+`` is base64 (one line in 64 starts with it), not a diff
    marker, unless the fence's line was a diff's added line with the same
    indentation: read as a marker, it made a full line one short, so the key
    "ended" there and the lines after it were shown.
    """
    line = item.group("b64")
    if line is None:
        return 0
    plus = item.group("marker") == "+" and item.end("marker") == item.start("b64")
    return len(line) + 1 if plus and item.group("indent") != diff else len(line)


def _diff_indent(hay: str, fence: int) -> str | None:
    """The indentation before a ``+`` that opens the fence's line (a diff's
    added line), or ``None`` when the fence's line is not one."""
    if fence == 0 or hay[fence - 1] != "+":
        return None
    start = fence - 1
    low = max(0, start - 64)
    while start > low and hay[start - 1] in " \t":
        start -= 1
    if start == 0 or hay[start - 1] == "\n" or hay[start - 2 : start] == "\\n":
        return hay[start : fence - 1]
    return None
