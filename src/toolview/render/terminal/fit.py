"""Rich ``Text`` that skips the word wrap when every line already fits.

Why: Rich wraps a ``Text`` by splitting it into one ``Text`` per line,
dividing every line into words, measuring each word and joining the lines
again, even when every line is far narrower than the console — most of the
terminal surface's cost per call (command output, JSON and headers are short
lines). When no line is wider than the space and there is no tab to expand,
the wrap gives the lines back unchanged, so ``FitText`` renders the text as
the joined lines would render: the same styled pieces on every line. Anything
else (a line to wrap, a tab, a justification that pads) takes Rich's own path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

__all__ = ["FitText", "fits", "line_segments"]

# Printable ASCII and newlines: every character but a newline takes one cell.
_PRINTABLE_ASCII: Final = re.compile("[\x20-\x7e\n]*")


def fits(text: Text, width: int) -> bool:
    """Whether Rich's wrap at ``width`` would give ``text``'s lines back unchanged.

    Both the cell width and the length count: Rich trims trailing spaces past
    ``width`` characters even where they take no cells.
    """
    plain = text.plain
    if (text.justify or "default") != "default":
        return False
    if _PRINTABLE_ASCII.fullmatch(plain):  # a cell per character
        return max(map(len, plain.split("\n"))) <= width
    if "\t" in plain:
        return False
    return all(len(line) <= width and cell_len(line) <= width for line in plain.split("\n"))


def line_segments(text: Text, console: Console) -> Iterator[Segment]:
    """``text`` rendered as ``Text("\\n").join(text.split())`` renders, once split into lines.

    That join gives the text's own style to each line, so a text without
    spans is still drawn in its style; ``Text.render`` alone would drop it.
    Every console splits segments into lines before it writes them.
    """
    if text.spans or not text.style:
        yield from text.render(console, end=text.end)
        return
    if text.plain:
        yield Segment(text.plain, console.get_style(text.style))
    if text.end:
        yield Segment(text.end)


class FitText(Text):
    """A ``Text`` rendered without Rich's word wrap where no line needs it."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        justify = self.justify or options.justify or "default"
        if justify != "default" or not fits(self, options.max_width):
            yield from super().__rich_console__(console, options)
            return
        yield from line_segments(self, console)

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        """The segments as one list (``draw.segments_of`` takes it whole)."""
        justify = self.justify or options.justify or "default"
        if justify != "default" or not fits(self, options.max_width):
            return list(console.render(self, options))
        return list(line_segments(self, console))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """``Text``'s measure (widest word, widest line), counted by ``len`` where that is exact."""
        plain = self.plain
        if not _PRINTABLE_ASCII.fullmatch(plain):
            return super().__rich_measure__(console, options)
        lines = plain.splitlines()
        widest = max(map(len, lines)) if lines else 0
        words = plain.split()
        return Measurement(max(map(len, words)) if words else widest, widest)
