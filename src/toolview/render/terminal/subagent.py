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
from toolview.render.terminal.styled import Hanging, note_text
from toolview.render.view import CallView
from toolview.render.words import sub_headline

__all__ = ["Gutter", "sub_renderable"]

_BAR: Final = (Segment("│ ", Style(dim=True)), Segment("│", Style(dim=True)))
_SPACE: Final = (Segment("  "), Segment(""))


@dataclass(frozen=True)
class Gutter:
    """``renderable`` two columns in, behind a dim ``│`` on every line (blank ones too).

    ``bar=False``: two spaces instead. Unlike ``Indent`` it gives the renderable
    the whole room left, unmeasured: a ``Hanging`` line wraps where it would at
    that width (measured, it would be given its own length and wrap short).
    """

    renderable: RenderableType
    bar: bool = True

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(1, options.max_width - 2)
        lead, blank_lead = _BAR if self.bar else _SPACE
        lines = console.render_lines(self.renderable, options.update_width(room), pad=False)
        for line in lines:
            blank = not "".join(segment.text for segment in line).strip()
            yield blank_lead if blank else lead
            if not blank:
                yield from line
            yield Segment.line()


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
        parts.append(Gutter(Group(*entries)))
    if sub.more is not None:
        parts.append(Text(f"{sub.more} of the sub-agent", style="dim italic"))
    return Group(*parts)
