"""A producer's gap marker: the one line in a cut text that is not output.

Why a surface must know it: a producer that keeps a head and a tail of a
long output joins them with one line saying what is missing between them —
``toolview run``'s window writes ``… 600 lines omitted …`` (docs/run.md), and
its truncation descriptor does not count that line as shown. When a surface
cuts the text again and the marker falls in the part it leaves out, counting
the marker as a hidden line overstates what is hidden by one ("901 more
lines" for ``seq 1 1000`` shown 100 lines deep, where 900 are hidden). The
surface counts hidden lines with ``output_lines``, which leaves marker lines
out. Recognised exactly: ``… N lines omitted …`` or ``… N bytes omitted …``
on a line of its own, N with optional thousands separators; plain string
tests, no regular expression, each candidate line looked at once.
"""

from __future__ import annotations

from typing import Final

__all__ = ["is_gap_marker", "output_lines"]

_OPEN: Final = "… "
_CLOSE: Final = " omitted …"
_UNITS: Final = frozenset({"lines", "bytes"})
_LONGEST: Final = 48  # "… 999,999,999,999,999,999 bytes omitted …" fits, with room


def is_gap_marker(line: str) -> bool:
    """Whether ``line`` (without its newline) is a producer's gap marker."""
    if len(line) > _LONGEST or not (line.startswith(_OPEN) and line.endswith(_CLOSE)):
        return False
    count, _, unit = line[len(_OPEN) : -len(_CLOSE)].partition(" ")
    digits = count.replace(",", "")
    return unit in _UNITS and digits.isascii() and digits.isdigit()


def output_lines(text: str, start: int, end: int, lines: int) -> int:
    """``lines`` (the lines of ``text[start:end]``) less the gap markers among them."""
    markers = 0
    pos = text.find(_CLOSE, start, end)
    while pos >= 0:
        stop = pos + len(_CLOSE)
        first = max(start, stop - _LONGEST)
        line_start = text.rfind("\n", first, pos) + 1 or first
        ends_line = stop == end or text.startswith("\n", stop)
        if ends_line and (line_start > first or first == start):
            markers += is_gap_marker(text[line_start:stop])
        pos = text.find(_CLOSE, stop, end)
    return lines - markers
