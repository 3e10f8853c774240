"""The two common shapes of command output, parsed without ``safety.ansi``'s state machine.

Most output is plain lines, and most of the rest is plain lines with SGR
colours (``ESC[32mPASSED ESC[0m``) and nothing else: no ``\\r``, ``\\b``,
erase, other sequence or control. For such text the parser only appends —
no line is overwritten — so what it gives is the text with the colour codes
taken out, and a run for each stretch of one colour within a line (a run
ends at a line's end; touching stretches of one style on a line are one
run). ``colours_only`` builds that in one ``finditer`` over the codes and
newlines instead of a Python call per control, and answers None for any
other text (``safety.ansi`` parses it). A hypothesis test holds the two
equal.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.safety.inert import inert
from toolview.safety.sgr import PLAIN, Run, Style, Styled, apply_sgr

__all__ = ["colours_only"]

_SGR: Final = re.compile(r"\x1b\[[0-?]*+m")
_SGR_OR_NEWLINE: Final = re.compile(r"\x1b\[([0-?]*+)m|\n")


def colours_only(text: str, max_params: int) -> Styled | None:
    """``text`` with its SGR codes read into runs, if nothing else in it needs the parser."""
    shown = _SGR.sub("", text)
    if not inert(shown):
        return None
    runs: list[Run] = []
    style: Style = PLAIN
    index = out = 0  # where the next chunk starts in text, and in shown
    start = end = -1  # the open run, and its style
    current: Style | None = None
    for match in _SGR_OR_NEWLINE.finditer(text):
        at = match.start()
        if at > index:  # a chunk of text, written in the current style
            if style != PLAIN:
                if current == style and end == out:
                    end = out + at - index
                else:
                    if current is not None:
                        runs.append(Run(start, end, current))
                    start, end, current = out, out + at - index, style
            out += at - index
        params = match.group(1)
        if params is None:
            out += 1  # the newline: a run never spans it
        elif len(params) <= max_params:
            style = apply_sgr(params, style)
        index = match.end()
    if len(text) > index and style != PLAIN:
        if current == style and end == out:
            end = out + len(text) - index
        else:
            if current is not None:
                runs.append(Run(start, end, current))
            start, end, current = out, out + len(text) - index, style
    if current is not None:
        runs.append(Run(start, end, current))
    return Styled(shown, tuple(runs))
