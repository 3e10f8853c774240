"""``Drawer`` and ``Indent`` write what ``Console.print`` and ``Padding(expand=False)`` wrote.

The reference is the old path: the same pieces printed by a Rich console,
bodies indented by ``Padding(r, (0, 0, 0, 2), expand=False)``, trailing
spaces stripped. The fast path: ``Indent`` and ``Drawer.draw``. Whatever the
texts (wide characters, combining marks, tabs, styled trailing spaces), the
code, the width (down to 1) and colour, the bytes are the same.
"""

from __future__ import annotations

import re
from io import StringIO

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from toolview.render.highlight import lexer_for
from toolview.render.terminal.draw import Drawer, strip_line_ends
from toolview.render.terminal.fit import FitText
from toolview.render.terminal.indent import Indent
from toolview.render.terminal.layout import make_console
from toolview.render.terminal.numbered import NumberedCode
from toolview.render.terminal.styled import Hanging

_STYLES = ("", "bold", "red", "dim italic", "green on blue")
_ALPHABET = st.sampled_from([*"ab xyz-(:\n\t", "界", "é", "\u0301", "   ", "\n\n", "def "])
_LANGUAGES = ("python", "rust", "go", "text")

Piece = tuple[str, str, str, tuple[tuple[int, int, str], ...]]


@st.composite
def pieces(draw: st.DrawFn) -> Piece:
    kind = draw(st.sampled_from(["fit", "text", "code", "hanging"]))
    plain = "".join(draw(st.lists(_ALPHABET, max_size=30)))
    spans = []
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, len(plain)))
        spans.append((start, draw(st.integers(start, len(plain))), draw(st.sampled_from(_STYLES))))
    extra = draw(st.sampled_from(_LANGUAGES if kind == "code" else _STYLES))
    return kind, plain, extra, tuple(spans)


def _piece(piece: Piece) -> RenderableType:
    kind, plain, extra, spans = piece
    if kind == "code":
        return NumberedCode(plain.rstrip("\n") or "x", lexer_for(extra, None), "ansi_dark", 9)
    text = (FitText if kind != "text" else Text)(plain, style=extra)
    for start, end, style in spans:
        if style:
            text.stylize(style, start, end)
    return Hanging(text) if kind == "hanging" else text


def _tree(call: list[list[Piece]], fast: bool) -> RenderableType:
    """A header, then each body indented (fast: ``Indent``; reference: ``Padding``)."""
    head, *bodies = call
    indented = [
        Indent(Group(*map(_piece, body)))
        if fast
        else Padding(Group(*map(_piece, body)), (0, 0, 0, 2), expand=False)
        for body in bodies
    ]
    return Group(*map(_piece, head), *indented)


def _printed(renderable: RenderableType, width: int, color: bool) -> str:
    console, buffer = make_console(width, color)
    console.print(renderable, markup=False, highlight=False, emoji=False)
    return strip_line_ends(buffer.getvalue())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(pieces(), max_size=4), min_size=1, max_size=4),
    st.integers(1, 90),
    st.booleans(),
)
def test_drawn_as_rich_printed_it(call: list[list[Piece]], width: int, color: bool) -> None:
    expected = _printed(_tree(call, fast=False), width, color)
    drawer = Drawer(make_console(width, color)[0], color)
    assert drawer.draw(_tree(call, fast=True)) == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(pieces(), min_size=1, max_size=4), st.integers(1, 90), st.booleans())
def test_indent_prints_as_padding(body: list[Piece], width: int, color: bool) -> None:
    """Printed by Rich itself (``Indent.__rich_console__``), not only through the drawer."""
    padded = Padding(Group(*map(_piece, body)), (0, 0, 0, 2), expand=False)
    indented = Indent(Group(*map(_piece, body)))
    assert _printed(indented, width, color) == _printed(padded, width, color)


def test_styled_trailing_spaces_keep_padding() -> None:
    """A shorter line padded by ``Padding`` keeps its styled trailing spaces; so must ``Indent``."""
    body = Group(Text("wide line here"), Text("ab   ", style="red"))
    drawer = Drawer(make_console(40, True)[0], True)
    reference = _printed(Padding(body, (0, 0, 0, 2), expand=False), 40, True)
    assert "\x1b[31mab   \x1b[0m" in reference
    assert drawer.draw(Indent(body)) == reference


def test_buffer_unused() -> None:
    """The drawer writes nothing to the console's own buffer."""
    console, buffer = make_console(30, False)
    Drawer(console, False).draw(Group(Text("a"), Indent(Text("b"))))
    assert isinstance(buffer, StringIO) and buffer.getvalue() == ""


_OLD_TRAILING = re.compile(r" +((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([" ", "  ", "a", "\n", "\x1b[1m", "\x1b[0m", "\x1b[", "m", ";"])))
def test_line_ends_stripped_as_before(parts: list[str]) -> None:
    text = "".join(parts)
    assert strip_line_ends(text) == _OLD_TRAILING.sub(r"\1", text)


def test_linked_style_drawn_by_rich() -> None:
    """The surface writes no links, but a style with one is left to Rich (its id is random)."""
    text = Text("see", style="link https://example.com")
    drawer = Drawer(make_console(20, True)[0], True)
    unlinked = re.compile(r"id=\d+;")
    assert unlinked.sub("", drawer.draw(text)) == unlinked.sub("", _printed(text, 20, True))
