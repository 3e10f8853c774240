"""``FitText`` and ``Hanging`` skip Rich's word wrap only where it changes nothing.

The property: whatever the text, its styles and spans, and the width, a
``FitText`` prints exactly the bytes a plain Rich ``Text`` prints — on its
own, inside an indenting ``Padding`` (how the surface lays out a body) and
under ``Hanging``. Lines that fit take the fast path; the others fall back.
"""

from __future__ import annotations

from collections.abc import Iterable
from io import StringIO

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from toolview.render.terminal.fit import FitText, fits
from toolview.render.terminal.styled import Hanging

_STYLES = ("", "bold", "red", "dim italic", "bold green on blue", "underline reverse")
_ALPHABET = st.sampled_from([*"ab xyz-\n\t", "界", "é", "\u0301", "  ", "\n\n"])


def _print(renderable: RenderableType, width: int, color: bool) -> str:
    buffer = StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system="256" if color else None,
        force_terminal=color,
        no_color=not color,
        markup=False,
        emoji=False,
        highlight=False,
        _environ={},
    )
    console.print(renderable)
    return buffer.getvalue()


def _lines(segments: Iterable[Segment]) -> list[list[tuple[str, Style | None]]]:
    """Segments as lines of (text, style): what any console makes of them.

    Unstyled pieces side by side are one piece (``None`` and a null style both
    print the bare text); styled pieces stay apart (each prints its own SGR).
    """
    lines: list[list[tuple[str, Style | None]]] = [[]]
    for text, style, _ in segments:
        for index, part in enumerate(text.split("\n")):
            if index:
                lines.append([])
            line, kept = lines[-1], style or None
            if part and kept is None and line and line[-1][1] is None:
                line[-1] = (line[-1][0] + part, None)
            elif part:
                line.append((part, kept))
    return lines


@st.composite
def texts(draw: st.DrawFn) -> tuple[str, str, list[tuple[int, int, str]]]:
    plain = "".join(draw(st.lists(_ALPHABET, max_size=40)))
    spans = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, len(plain)))
        end = draw(st.integers(start, len(plain)))
        spans.append((start, end, draw(st.sampled_from(_STYLES[1:]))))
    return plain, draw(st.sampled_from(_STYLES)), spans


def _pair(case: tuple[str, str, list[tuple[int, int, str]]]) -> tuple[Text, FitText]:
    plain, style, spans = case
    rich, fit = Text(plain, style=style), FitText(plain, style=style)
    for start, end, span_style in spans:
        rich.stylize(span_style, start, end)
        fit.stylize(span_style, start, end)
    return rich, fit


@settings(max_examples=400, deadline=None)
@given(texts(), st.integers(1, 30), st.booleans())
def test_fit_text_prints_what_text_prints(case, width, color) -> None:
    rich, fit = _pair(case)
    assert _print(fit, width, color) == _print(rich, width, color)
    console = Console(width=width, _environ={})  # the segments too, for a caller's own console
    assert _lines(console.render(fit)) == _lines(console.render(rich))
    padded = (Padding(rich, (0, 0, 0, 2), expand=False), Padding(fit, (0, 0, 0, 2), expand=False))
    assert _print(padded[1], width + 2, color) == _print(padded[0], width + 2, color)


@settings(max_examples=300, deadline=None)
@given(texts(), st.integers(3, 30), st.booleans())
def test_hanging_prints_what_the_wrapped_lines_print(case, width, color) -> None:
    rich, fit = _pair(case)
    expected = []  # Hanging as it was: Rich's wrap, later lines indented by two
    for index, line in enumerate(rich.wrap(Console(width=width), width - 2)):
        if index:
            line.pad_left(2)
        expected.append(line)
    printed = _print(Hanging(fit), width, color)
    assert printed == "".join(_print(line, width, color) for line in expected)


@settings(max_examples=300, deadline=None)
@given(texts())
def test_fit_text_measures_what_text_measures(case) -> None:
    rich, fit = _pair(case)
    console = Console(width=80, _environ={})
    options = console.options
    assert fit.__rich_measure__(console, options) == rich.__rich_measure__(console, options)


def test_fast_path_only_where_nothing_wraps() -> None:
    assert fits(Text("short\nlines"), 5)
    assert not fits(Text("a line too long"), 5)
    assert not fits(Text("tab\there"), 40)
    assert not fits(Text("x", justify="left"), 40)
    assert not fits(Text("ab  "), 3)  # trailing spaces past the width: Rich trims them
