"""Renderables to terminal text: what ``Console.print`` writes, without a generator per level.

Why: ``Console.print`` renders through ``Console.render``, a generator at
every level of nesting (call → body → file → line) that checks and re-yields
every segment, copies the options at each level, then splits and crops every
line measuring each segment (a cached ``cell_len`` per segment). A file call
is ~1,300 segments four levels deep: that traversal cost more than drawing.

``segments_of`` gives the list ``Console.render`` would yield: a ``Group`` is
walked directly, a renderable of this surface with a ``tv_segments`` method
builds its list itself, anything else goes through Rich. ``Drawer.draw``
then splits the lines, crops each to the console's width (a printable-ASCII
line measured once, by ``len``), and writes each segment as
``Console._render_buffer`` does. tests/render/terminal/test_draw.py compares
it with ``Console.print`` on hypothesis-drawn calls.
"""

from __future__ import annotations

import re
from typing import Final, Protocol

from rich.color import ColorSystem
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.style import Style

__all__ = ["Drawer", "Segmented", "fit_line", "segments_of", "strip_line_ends"]

# Rich pads each line of a group to the group's width; those spaces carry nothing. (A
# lookahead keeps the codes, so the replacement is "" and needs no template per match;
# possessive, a run of spaces that is not at a line's end is given up without backtracking.)
_TRAILING_SPACES: Final = re.compile(r" ++(?=(?:\x1b\[[0-9;]*m)*$)", re.MULTILINE)
_ONE_CELL: Final = re.compile("[\x20-\x7e]*")  # printable ASCII: a cell per character


class Segmented(Protocol):
    """A renderable of this surface that builds its own segment list."""

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]: ...


def segments_of(
    console: Console, renderable: RenderableType, options: ConsoleOptions
) -> list[Segment]:
    """``list(console.render(renderable, options))``, walking groups and this surface's own."""
    if options.max_width < 1:
        return []
    if options.height is not None:
        return list(console.render(renderable, options))
    if type(renderable) is Group:
        out: list[Segment] = []
        for child in renderable.renderables:
            out += segments_of(console, child, options)
        return out
    own = getattr(renderable, "tv_segments", None)
    if own is not None:
        segments: list[Segment] = own(console, options)
        return segments
    return list(console.render(renderable, options))


def fit_line(
    line: list[Segment], width: int, style: Style | None, *, pad: bool = True
) -> list[Segment]:
    """``Segment.adjust_line_length(line, width, style, pad)``, a printable-ASCII line measured
    once (control segments there have no text: the same cells either way)."""
    plain = "".join([segment.text for segment in line])
    if not pad and len(plain) <= width and plain.isascii():  # an ASCII character: 0 or 1 cell
        return line
    if not _ONE_CELL.fullmatch(plain):
        return Segment.adjust_line_length(line, width, style=style, pad=pad)
    length = len(plain)
    if length < width:
        return [*line, Segment(" " * (width - length), style)] if pad else line
    if length > width:
        return Segment.adjust_line_length(line, width, style=style, pad=pad)
    return line


def strip_line_ends(text: str) -> str:
    """Trailing spaces off every line (before any closing SGR codes)."""
    return _TRAILING_SPACES.sub("", text)


class Drawer:
    """``console.print(renderable)`` as a string, for the console ``make_console`` builds."""

    def __init__(self, console: Console, color: bool) -> None:
        self.console = console
        self.width = console.width
        self.options = console.options.update(
            justify=None,
            overflow=None,
            height=None,
            no_wrap=None,
            markup=False,
            highlight=False,
        )
        self._system = ColorSystem.EIGHT_BIT if color else None
        self._controls = color  # a terminal writes control segments; a file does not
        self._wrap: dict[Style, tuple[str, str]] = {}

    def draw(self, renderable: RenderableType) -> str:
        """What ``Console.print`` writes for ``renderable``, trailing spaces off each line."""
        segments = segments_of(self.console, renderable, self.options)
        return strip_line_ends("".join(self._written(segments)))

    def _written(self, segments: list[Segment]) -> list[str]:
        """Each line cropped to the width, its segments written, then its newline."""
        out: list[str] = []
        line: list[Segment] = []
        for segment in segments:
            if "\n" in segment.text and not segment.control:
                text, style, _ = segment
                while text:
                    part, newline, text = text.partition("\n")
                    if part:
                        line.append(Segment(part, style))
                    if newline:
                        self._write(fit_line(line, self.width, None, pad=False), out)
                        out.append("\n")
                        line = []
            else:
                line.append(segment)
        if line:
            self._write(fit_line(line, self.width, None, pad=False), out)
        return out

    def _write(self, line: list[Segment], out: list[str]) -> None:
        """Each segment as ``Console._render_buffer`` writes it (a style's codes found once)."""
        controls, wrap = self._controls, self._wrap
        for text, style, control in line:
            if style:
                if text:
                    codes = wrap.get(style) or self._codes(style)
                    out.append(
                        codes[0] + text + codes[1]
                        if codes
                        else style.render(text, color_system=self._system)
                    )
            elif controls or not control:
                out.append(text)

    def _codes(self, style: Style) -> tuple[str, str] | None:
        """What ``style.render`` puts around a text (None: a link, rendered each time)."""
        if style.link:
            return None
        before, _, after = style.render("\x00", color_system=self._system).partition("\x00")
        self._wrap[style] = codes = (before, after)
        return codes
