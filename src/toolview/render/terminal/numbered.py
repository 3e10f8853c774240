"""Highlighted code with line numbers for the terminal, drawn the way Rich's ``Syntax`` draws it.

``Syntax(word_wrap=True)`` splits its text into one ``Text`` per line and
wraps each through the console, even when it fits: most of a file's cost.
``NumberedCode`` makes the segments Rich would, straight from the Pygments
tokens in one pass (the theme's style per token type looked up once), and
yields them line by line beside the numbers; only a line wider than the room
left beside the numbers goes through Rich's wrapping, so its continuation is
indented under the code as before. The output is Rich's, byte for byte
(tests/render/test_numbered.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from pygments.lexer import Lexer  # type: ignore[import-untyped]
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.control import strip_control_codes
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text

from toolview.render.regexlex import tokens as lexed

__all__ = ["NumberedCode"]

_TAB = 4
_BACKGROUND = Style(bgcolor="default")  # the terminal's own background, as Syntax draws it
_NUMBER = Style(dim=True)
_GUTTER_PAD = 2  # Syntax's NUMBERS_COLUMN_DEFAULT_PADDING
_ONE_CELL = re.compile("[\x20-\x7e]*")  # printable ASCII: a cell per character
_ONE_CELL_LINES = re.compile("[\x20-\x7e\n]*")
_STRIPPED = re.compile("[\x07\x08\x0b\x0c\x0d]")  # what strip_control_codes takes out


class _Styles(dict[Any, tuple[Style, Style | None]]):
    """A theme's style per Pygments token type, each looked up once: the style, and the style
    it is drawn in (on the background; ``None`` for no style, drawn with its plain neighbours)."""

    def __init__(self, theme: str) -> None:
        super().__init__()
        self._lookup: Callable[[Any], Style] = Syntax.get_theme(theme).get_style_for_token

    def __missing__(self, token: Any) -> tuple[Style, Style | None]:
        style = self._lookup(token)
        pair = self[token] = (style, _on_background(style) if style else None)
        return pair


@lru_cache(maxsize=8)
def _styles(theme: str) -> _Styles:
    return _Styles(theme)


class NumberedCode:
    """``code`` highlighted by ``lexer`` in ``theme``, numbered from ``start_line``."""

    def __init__(self, code: str, lexer: Lexer, theme: str, start_line: int = 1) -> None:
        self.source = code
        self.code = code.expandtabs(_TAB)
        self.start_line = start_line
        styles = _styles(theme)
        tokens = lexed(lexer, self.code + "\n")
        if _STRIPPED.search(self.code):  # tokens are pieces of the code: none has one otherwise
            tokens = ((token, strip_control_codes(part)) for token, part in tokens)
        self._tokens = [(part, styles[token]) for token, part in tokens]
        self._lines = [_measured(line) for line in _segment_lines(self._tokens)]
        self._width = len(str(start_line + self.code.count("\n"))) + _GUTTER_PAD

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if _ONE_CELL_LINES.fullmatch(self.source):
            longest = max(map(len, self.source.split("\n")))
        else:
            longest = max((cell_len(line) for line in self.source.splitlines()), default=0)
        return Measurement(self._width, self._width + longest + 1)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.tv_segments(console, options)

    def tv_segments(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        """Every line's number and segments, as one list (``draw.segments_of`` takes it whole)."""
        room = max(0, options.max_width - self._width - 1)
        lead, newline = Segment("  "), Segment("\n")
        digits = self._width - 2
        out: list[Segment] = []
        offset = 0
        for number, (line, size, cells) in enumerate(self._lines, self.start_line):
            out += (lead, Segment(str(number).rjust(digits) + " ", _NUMBER))
            if cells <= room:
                out += line
                out.append(newline)
            else:
                out += self._wrapped(console, options.update(width=room), offset, size)
            offset += size + 1
        return out

    def _wrapped(
        self, console: Console, options: ConsoleOptions, offset: int, size: int
    ) -> Iterator[Segment]:
        """A line wider than its room, wrapped by Rich as Syntax wrapped it."""
        pad = Segment(" " * self._width + " ")
        line = self._text()[offset : offset + size]
        wrap = options.update(height=None, justify="left")
        for index, part in enumerate(
            console.render_lines(line, wrap, style=_BACKGROUND, pad=False)
        ):
            if index:
                yield pad
            yield from part
            yield Segment("\n")

    def _text(self) -> Text:
        """The whole code as Syntax's ``Text`` (built only when a line must wrap)."""
        text = Text(justify="default", style=_BACKGROUND, end="", tab_size=_TAB)
        text.append_tokens([(part, style) for part, (style, _) in self._tokens])
        text.stylize(_BACKGROUND)
        return text


def _segment_lines(tokens: list[tuple[str, tuple[Style, Style | None]]]) -> list[list[Segment]]:
    """The segments ``Text.render`` makes of ``tokens``, split into lines.

    A styled token is a span of its own (its segment is never joined to the
    next); plain tokens run together; each is drawn on the background.
    """
    lines: list[list[Segment]] = [[]]
    plain: list[str] = []
    for part, (_, drawn) in tokens:
        if drawn is None:
            plain.append(part)
            continue
        if plain:
            _add(lines, "".join(plain), _BACKGROUND)
            plain.clear()
        if "\n" in part:
            _add(lines, part, drawn)
        elif part:
            lines[-1].append(Segment(part, drawn))
    if plain:
        _add(lines, "".join(plain), _BACKGROUND)
    if not lines[-1]:
        lines.pop()
    return lines


def _add(lines: list[list[Segment]], text: str, style: Style) -> None:
    first, *rest = text.split("\n")
    if first:
        lines[-1].append(Segment(first, style))
    for piece in rest:
        lines.append([Segment(piece, style)] if piece else [])


def _measured(line: list[Segment]) -> tuple[list[Segment], int, int]:
    """A line with its length in characters and in cells (by ``len`` where that is exact)."""
    plain = "".join([segment.text for segment in line])
    one_cell = _ONE_CELL.fullmatch(plain) is not None
    return line, len(plain), len(plain) if one_cell else Segment.get_line_length(line)


@lru_cache(maxsize=256)
def _on_background(style: Style) -> Style:
    return Style.combine((_BACKGROUND, style, _BACKGROUND))
