"""Highlighted code with line numbers for the terminal, drawn the way Rich's ``Syntax`` draws it.

``Syntax(word_wrap=True)`` splits its text into one ``Text`` per line and
wraps each through the console, even when it fits: most of a file's cost.
``NumberedCode`` styles the whole file once (Pygments tokens, the theme's
style per token type, cached) and renders it in one pass; only a line
wider than the room left beside the numbers goes through Rich's wrapping,
so its continuation is indented under the code as before. The output is
Rich's, byte for byte (tests/render/test_numbered.py compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pygments.lexer import Lexer  # type: ignore[import-untyped]
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text

__all__ = ["NumberedCode"]

_TAB = 4
_BACKGROUND = Style(bgcolor="default")  # the terminal's own background, as Syntax draws it
_NUMBER = Style(dim=True)
_GUTTER_PAD = 2  # Syntax's NUMBERS_COLUMN_DEFAULT_PADDING


@lru_cache(maxsize=8)
def _style_for(theme: str) -> Callable[[Any], Style]:
    """The theme's ``get_style_for_token`` (it caches each token type's style)."""
    return Syntax.get_theme(theme).get_style_for_token


class NumberedCode:
    """``code`` highlighted by ``lexer`` in ``theme``, numbered from ``start_line``."""

    def __init__(self, code: str, lexer: Lexer, theme: str, start_line: int = 1) -> None:
        self.code = code.expandtabs(_TAB)
        self.start_line = start_line
        style_for = _style_for(theme)
        text = Text(style=_BACKGROUND, justify="default", tab_size=_TAB, end="")
        text.append_tokens(
            (part, style_for(token)) for token, part in lexer.get_tokens(self.code + "\n")
        )
        text.stylize(_BACKGROUND)
        self._text = text
        self._width = len(str(start_line + self.code.count("\n"))) + _GUTTER_PAD

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((Text(line).cell_len for line in self.code.splitlines()), default=0)
        return Measurement(self._width, self._width + longest + 1)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(0, options.max_width - self._width - 1)
        wrap = options.update(width=room, height=None, justify="left")
        pad = Segment(" " * self._width + " ", Style.null())
        lead = Segment("  ", Style.null())
        newline = Segment("\n")
        offset = 0
        lines = Segment.split_lines(self._text.render(console, end=""))
        for number, line in enumerate(lines, self.start_line):
            size = sum(len(segment.text) for segment in line)
            yield lead
            yield Segment(str(number).rjust(self._width - 2) + " ", _NUMBER)
            if Segment.get_line_length(line) <= room:
                yield from line
                yield newline
            else:
                wrapped = console.render_lines(
                    self._text[offset : offset + size], wrap, style=_BACKGROUND, pad=False
                )
                for index, part in enumerate(wrapped):
                    if index:
                        yield pad
                    yield from part
                    yield newline
            offset += size + 1
