"""Untrusted strings as Rich ``Text``: the only way tool output reaches a console.

``Text`` never parses markup or emoji codes, and nothing here applies a
highlighter, so "[bold red]x[/]" comes out literally. The strings are already
cleaned by the core (secrets redacted, controls made visible). Colours that
command output carried arrive as data (``Window.styles``) and are drawn as Rich
styles built from the closed set of ``safety.sgr.Style`` fields, so the console
emits only SGR it generates itself (none at all without colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.color import Color
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text

from toolview.contract import Truncation
from toolview.render.limits import Omission, Window, truncation_omission
from toolview.render.terminal.fit import FitText, fits, line_segments
from toolview.render.words import omission_line
from toolview.safety.sgr import Colour, Run, Style, palette_index

__all__ = [
    "Hanging",
    "cut_text",
    "lines_text",
    "note_text",
    "omission_text",
    "rich_style",
    "styled_text",
    "truncation_text",
    "window_text",
]

OMISSION_STYLE = "dim italic"
NOTE_STYLE = "yellow italic"


def omission_text(omission: Omission) -> Text:
    """ "… 4,000 more lines", styled as commentary."""
    return FitText(str(omission), style=OMISSION_STYLE)


def truncation_text(truncated: Truncation | None) -> list[Text]:
    """The descriptor's truncation as a line, or nothing."""
    omission = truncation_omission(truncated)
    return [omission_text(omission)] if omission else []


def window_text(
    window: Window, style: str = "", tool: Omission | None = None, *, tool_before: bool = False
) -> Group:
    """A cleaned window, with the omission wording where it was cut.

    ``tool`` (the tool's own truncation) joins this surface's cut on that side
    in one line — before for a tail, after for a head.
    """
    body = window.text[:-1] if window.text.endswith("\n") else window.text
    return Group(
        *cut_text(window.before, tool if tool_before else None),
        styled_text(body, window.styles, style),
        *cut_text(window.after, None if tool_before else tool),
    )


def _colour(colour: Colour | None) -> Color | None:
    if colour is None:
        return None
    return Color.from_ansi(palette_index(colour))  # 24-bit: the nearest of 256, as in HTML


@lru_cache(maxsize=512)
def rich_style(style: Style) -> RichStyle:
    """The Rich style for a kept SGR style: only colour, bold, dim, italic, underline, reverse."""
    return RichStyle(
        color=_colour(style.fg),
        bgcolor=_colour(style.bg),
        bold=style.bold or None,
        dim=style.dim or None,
        italic=style.italic or None,
        underline=style.underline or None,
        reverse=style.inverse or None,
    )


def styled_text(text: str, runs: tuple[Run, ...], style: str = "") -> Text:
    """Cleaned ``text`` in ``style``, each run of command output's own colours on top."""
    out = FitText(text, style=style)
    for run in runs:
        if run.start < len(text):
            out.stylize(rich_style(run.style), run.start, min(run.end, len(text)))
    return out


def cut_text(shown: Omission | None, tool: Omission | None) -> list[Text]:
    """One styled line for what this surface and the tool left out, or nothing."""
    line = omission_line(shown, tool)
    return [FitText(line, style=OMISSION_STYLE)] if line else []


def lines_text(lines: list[str], style: str = "") -> Text:
    """Already-cleaned lines as one ``Text``."""
    return FitText("\n".join(lines), style=style)


@dataclass(frozen=True)
class Hanging:
    """A line that may wrap, its wrapped lines indented under its start.

    Only an entry's first line (a call's header, a receipt, a message's role, a
    note) starts at column 0 of the terminal; a long tool name or a message
    line wrapped there could otherwise put "✓ Success  bash" at column 0 and
    read as a call of its own. Lines are wrapped ``indent`` short of the width,
    so the indented ones fit.
    """

    text: Text
    indent: int = 2

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - self.indent)
        if not fits(self.text, width):
            for index, line in enumerate(self.text.wrap(console, width)):
                if index:
                    line.pad_left(self.indent)
                yield line
            return
        # Nothing to wrap: the lines as the wrap gives them, each rendered once.
        for index, line in enumerate(self.text.split(allow_blank=True)):
            if index:
                line.pad_left(self.indent)
            yield from line_segments(line, console)

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        """The segments as one list (``draw.segments_of`` takes it whole)."""
        if not fits(self.text, max(1, options.max_width - self.indent)):
            return list(console.render(self, options))
        out: list[Segment] = []
        for index, line in enumerate(self.text.split(allow_blank=True)):
            if index:
                line.pad_left(self.indent)
            out += line_segments(line, console)
        return out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


def note_text(note: str) -> Text:
    """A visible note, e.g. why the text is shown instead of a kind."""
    return FitText(f"note: {note}", style=NOTE_STYLE)
