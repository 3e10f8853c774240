"""Command output's colours as CSS classes: the 256-colour palette, no inline style.

The page's Content-Security-Policy admits one stylesheet by hash and no
``style`` attribute, so a colour a tool's output carried is drawn by class:
``tv-f<n>`` (foreground) and ``tv-g<n>`` (background) for each palette index,
``tv-sb`` bold, ``tv-sd`` dim, ``tv-si`` italic, ``tv-su`` underline. A 24-bit
colour is drawn as the nearest of the 256, as text kept legible in each scheme
(``legible``: a minimum contrast, as terminals enforce). Inverse swaps the two colours
(``tv-fx`` / ``tv-gx`` stand for the block's own background and text colour); a
text colour that would not read on the background the tool chose is drawn as the
best text on it (``pairs``: ``tv-k<n>``).
The first 16 are the theme's (``--tv-ansi-<n>``, ``theme.ANSI``): readable on
the code background in light and in dark; 16-255 are xterm's cube and grey
ramp, which every terminal draws alike (a tool that picks one picks its
exact colour, in either scheme).

Highlighted code (``code_class``) is drawn with few colours on purpose, the
way the "Alabaster" themes do: strings, comments, constants, the names a file
defines, and a diff's lines. Keywords, operators and other names are plain
text and cost no element, and tokens of one class that meet (across plain
whitespace) share one: a highlighted 100-line file is tens of elements, not
hundreds (docs/performance.md, "Light markup").
"""

from __future__ import annotations

from functools import cache
from typing import Final

from pygments.token import (  # type: ignore[import-untyped]
    Comment,
    Generic,
    Keyword,
    Name,
    Number,
    String,
    _TokenType,
)

from toolview.render.html.legible import cube_and_greys
from toolview.render.html.pairs import PAIR_CSS, clashes
from toolview.render.html.theme import TOOL_COLOURS
from toolview.safety.sgr import Colour, Style, palette_index

__all__ = ["CODE_CSS", "SGR_CSS", "code_class", "palette", "style_classes"]

_TEXT: Final = "var(--tv-fg)"  # .tv-pre's colours, what inverse swaps in
_BACKGROUND: Final = "var(--tv-code-bg)"


def palette() -> list[str]:
    """The 256 colours as CSS values: the theme's 16 (``var(--tv-ansi-<n>)``), then ``#rrggbb``."""
    return [f"var(--tv-ansi-{i})" for i in range(16)] + cube_and_greys()


def _text(index: int, colour: str) -> str:
    """A colour as text: a tool's exact colour, unless a scheme adjusts it to stay
    legible (``legible``; ``var(--tv-tc-<n>)``, defined per scheme by the theme)."""
    return f"var(--tv-tc-{index})" if index in TOOL_COLOURS else colour


def _css() -> str:
    colours = palette()
    rules = [
        f".tv-f{i}{{color:{_text(i, c)}}}.tv-g{i}{{background:{c}}}" for i, c in enumerate(colours)
    ]
    rules.append(f".tv-fx{{color:{_BACKGROUND}}}.tv-gx{{background:{_TEXT}}}")
    rules.append(".tv-sb{font-weight:700}.tv-sd{opacity:.7}.tv-si{font-style:italic}")
    rules.append(".tv-su{text-decoration:underline}")
    return "\n".join(rules) + "\n" + PAIR_CSS


SGR_CSS: Final = _css()


def _index(colour: Colour | None) -> str | None:
    return None if colour is None else str(palette_index(colour))


def style_classes(style: Style) -> str:
    """The class list for a kept SGR style: ``tv-f1 tv-sb``."""
    fg, bg = _index(style.fg), _index(style.bg)
    if style.inverse:
        fg, bg = bg or "x", fg or "x"
    # a pair that would not read in a scheme: the best text on that ground (``pairs``)
    if bg and fg not in (None, "x"):
        text: str | None = f"k{bg}" if clashes(fg, bg) else f"e{fg}"
    else:
        text = f"k{bg}" if bg and clashes(fg, bg) else f"f{fg}" if fg else None
    classes = [f"tv-{text}"] if text else []
    classes += [f"tv-g{bg}"] if bg else []
    flags = (style.bold, style.dim, style.italic, style.underline)
    classes += [f"tv-s{c}" for c, on in zip("bdiu", flags, strict=True) if on]
    return " ".join(classes)


_SCOPES: Final = (".tv-code", ".tv-json", ".tv-fence")  # code, JSON, a Markdown code block
# Token type -> (class, CSS declarations); a subtype takes its nearest listed parent's.
# What is drawn: strings, comments, constants, the names a file defines, a diff's
# lines, markup emphasis. Keywords, operators and other names are plain text.
_CODE: Final = {
    String: ("s", "color:var(--tv-code-string)"),
    Comment: ("c", "color:var(--tv-code-comment);font-style:italic"),
    Number: ("m", "color:var(--tv-code-constant)"),
    Keyword.Constant: ("m", "color:var(--tv-code-constant)"),
    Name.Function: ("n", "color:var(--tv-code-name)"),
    Name.Class: ("n", "color:var(--tv-code-name)"),
    Name.Tag: ("k", "color:var(--tv-json-key)"),  # a JSON object's keys
    Generic.Inserted: ("gi", "color:var(--tv-diff-add-fg)"),
    Generic.Deleted: ("gd", "color:var(--tv-diff-del-fg)"),
    Generic.Subheading: ("gu", "color:var(--tv-diff-hunk);font-weight:600"),
    Generic.Heading: ("gh", "font-weight:600"),
    Generic.Strong: ("gs", "font-weight:600"),
    Generic.Emph: ("ge", "font-style:italic"),
}
CODE_CSS: Final = (
    "".join(
        sorted({f"{scope} .{name}{{{rule}}}" for name, rule in _CODE.values() for scope in _SCOPES})
    )
    + "\n"
)


@cache
def code_class(token: _TokenType) -> str | None:
    """The class highlighted code draws ``token`` with, or None for plain text."""
    while token is not None:
        if token in _CODE:
            return _CODE[token][0]
        token = token.parent
    return None
