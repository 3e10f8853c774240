"""A body indented by two under its header: Rich's ``Padding(expand=False)``, drawn cheaper.

Why: the terminal indents every call's body and notes. ``Padding`` renders
the body through ``Console.render_lines``, which measures every segment of
every line (a cached ``cell_len`` per segment) to crop or pad it; a file is
~1,300 segments. ``Indent`` yields the same segments — the same width (the
body's measured maximum plus the indent, at most the room), every line cropped
or padded to it as ``render_lines`` does — but measures a line once, by
``len``, when it is printable ASCII (one cell per character, so the sum of
its segments' cells). The padding is kept, not dropped: it decides which
trailing spaces the layout strips (tests/render/terminal/test_indent.py
compares both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style

from toolview.render.terminal.draw import fit_line, segments_of

__all__ = ["Indent"]

_NULL: Final = Style.null()  # Padding's style "none": drawn as no style at all


@dataclass(frozen=True)
class Indent:
    """``renderable`` indented by ``left``: ``Padding(r, (0, 0, 0, left), expand=False)``."""

    renderable: RenderableType
    left: int = 2

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.height is not None:  # a fixed height: Padding's own path
            yield Padding(self.renderable, (0, 0, 0, self.left), expand=False)
            return
        yield from self.tv_segments(console, options)

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        """The segments ``Padding`` yields, as one list (``draw.segments_of`` takes it whole)."""
        measured = Measurement.get(console, options, self.renderable).maximum
        width = min(measured + self.left, options.max_width)
        room = width - self.left
        lead, newline = Segment(" " * self.left, _NULL), Segment.line()
        out: list[Segment] = []
        segments = segments_of(console, self.renderable, options.update_width(room))
        for line in Segment.split_lines(segments):
            out.append(lead)
            out += fit_line(line, room, _NULL)
            out.append(newline)
        return out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        padding = Padding(self.renderable, (0, 0, 0, self.left), expand=False)
        return Measurement.get(console, options, padding)
