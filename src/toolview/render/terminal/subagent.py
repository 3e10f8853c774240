"""A sub-agent under its call on the terminal: its headline, prompt, then its entries in a gutter.

Each of the sub-agent's entries is drawn as the thread's own are, behind a
dim ``│`` gutter, so a nested call can never pass for one of the thread's:
its header starts after the gutter, its body further in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from toolview.render.bodies import SubAgent, SubMessage, SubNote
from toolview.render.limits import Window
from toolview.render.receipt import Receipt
from toolview.render.terminal.draw import segments_of
from toolview.render.terminal.styled import Hanging, note_text
from toolview.render.view import CallView
from toolview.render.words import sub_headline

__all__ = ["Gutter", "sub_renderable"]

_BAR: Final = (Segment("│ ", Style(dim=True)), Segment("│", Style(dim=True)))
_SPACE: Final = (Segment("  "), Segment(""))
_MIN_ROOM: Final = 24


@dataclass(frozen=True)
class Gutter:
    """``renderable`` two columns in, behind a dim ``│`` on every line (blank ones too).

    ``bar=False``: two spaces instead. Unlike ``Indent`` it gives the renderable
    the whole room left, unmeasured: a ``Hanging`` line wraps where it would at
    that width (measured, it would be given its own length and wrap short).
    """

    renderable: RenderableType
    bar: bool = True
    narrow: str | None = None
    """Said instead when fewer than ``_MIN_ROOM`` columns are left (a sub-agent nested
    deep on a narrow terminal: drawn a character a line, it would cost without end)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.tv_segments(console, options)

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        """The lines behind the gutter, as one list (``draw.segments_of`` takes it whole)."""
        room = max(1, options.max_width - 2)
        if self.narrow is not None and room < _MIN_ROOM:
            return segments_of(console, Text(self.narrow, style="dim italic"), options)
        lead, blank_lead = _BAR if self.bar else _SPACE
        out: list[Segment] = []
        segments = segments_of(console, self.renderable, options.update_width(room))
        # Each line was laid out at ``room`` already; one wider (a wide character at the
        # edge) is cropped by the drawer at the terminal's width, the gutter kept.
        for line in Segment.split_lines(segments):
            if any(segment.text.strip() for segment in line):
                out.append(lead)
                out += line
            else:
                out.append(blank_lead)
            out.append(Segment.line())
        return out


def sub_renderable(
    sub: SubAgent,
    call: Callable[[CallView | Receipt], RenderableType],
    message: Callable[[str, Window], RenderableType],
) -> RenderableType:
    """The headline, the prompt, then each entry (``call``/``message`` draw them) in a gutter."""
    headline = Hanging(Text(sub_headline(sub), style="bold magenta"))
    if sub.cut is not None:
        return headline
    parts: list[RenderableType] = [headline]
    if sub.prompt is not None:
        parts.append(message("prompt", sub.prompt))
    entries: list[RenderableType] = []
    for number, part in enumerate(sub.entries):
        if number:
            entries.append(Text(""))
        if isinstance(part, SubMessage):
            entries.append(message(part.role, part.text))
        elif isinstance(part, SubNote):
            entries.append(Hanging(note_text(part.text)))
        else:
            entries.append(call(part))
    if entries:
        count = len(sub.entries)
        narrow = f"… {count:,} entr{'y' if count == 1 else 'ies'} of the sub-agent: too narrow here"
        parts.append(Gutter(Group(*entries), narrow=narrow))
    if sub.more is not None:
        parts.append(Text(f"{sub.more} of the sub-agent", style="dim italic"))
    return Group(*parts)
