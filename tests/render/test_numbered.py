"""Terminal code: ``NumberedCode`` draws exactly what Rich's ``Syntax(word_wrap=True)`` drew.

The reference is Rich itself, given the same lexer, at widths where every
line fits and where long lines wrap under the numbers; tabs, blank lines,
wide characters and a late start line included. Byte-identical ANSI, so
the terminal goldens and every reader of the old output see no change.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from rich.syntax import Syntax

from toolview.contract import FileProps
from toolview.render.highlight import diff_lexer, lexer_for
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.terminal.kinds.code import file_renderable
from toolview.render.terminal.numbered import NumberedCode

SRC = Path(__file__).parents[2] / "src" / "toolview"
SAMPLES = {
    "python": (SRC / "render" / "limits.py").read_text(encoding="utf-8"),
    "long": "x = '" + "word " * 60 + "'\n\ty = 1\n\n" + "z" * 300 + "\nend\n",
    "wide": "s = '漢字かな' * 30  # 全角\nprint(s)\n",
    "json": '{"a": [1, true, null], "b": "' + "v" * 150 + '"}',
    "blank": "\n\nfirst after blanks\n\n\n",
    "controls": "a = 1\x07  # bell\nb\x0b = '\x08'\x0c\n",  # stripped per token, as Rich does
}
LEXERS = {
    "python": lexer_for("python", None),
    "long": lexer_for(None, "a.py"),
    "wide": lexer_for("python", None),
    "json": lexer_for(None, "x.json"),
    "blank": lexer_for(None, "notes.txt"),
    "controls": lexer_for("python", None),
}


def _ansi(renderable: RenderableType, width: int, system: str) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=system, force_terminal=True)  # type: ignore[arg-type]
    console.print(renderable)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("width", [24, 60, 100, 160])
@pytest.mark.parametrize("system", ["standard", "truecolor"])
def test_same_output_as_rich_syntax(name: str, width: int, system: str) -> None:
    code, lexer = SAMPLES[name].rstrip("\n"), LEXERS[name]
    for start in (1, 998):
        reference = Syntax(
            code,
            lexer,
            theme="ansi_dark",
            line_numbers=True,
            start_line=start,
            word_wrap=True,
            background_color="default",
        )
        ours = NumberedCode(code, lexer, "ansi_dark", start)
        assert _ansi(ours, width, system) == _ansi(reference, width, system)


def test_a_long_line_wraps_under_the_code_not_the_numbers() -> None:
    code = NumberedCode("a = 1\n" + "b" * 50, lexer_for("python", None), "ansi_dark")
    out = io.StringIO()
    Console(file=out, width=30, color_system=None).print(code)
    assert out.getvalue().split("\n") == ["  1 a = 1", "  2 " + "b" * 26, "    " + "b" * 24, ""]


def test_diff_lexer_and_empty_code_render() -> None:
    for code in ("", "-a\n+b"):
        reference = Syntax(
            code,
            diff_lexer(),
            theme="ansi_dark",
            line_numbers=True,
            word_wrap=True,
            background_color="default",
        )
        assert _ansi(NumberedCode(code, diff_lexer(), "ansi_dark"), 40, "standard") == _ansi(
            reference, 40, "standard"
        )


def test_a_hundred_line_file_draws_as_it_did() -> None:
    """``file_renderable`` at 80 columns (ten lines wrap) against Syntax's output, saved before."""
    data = Path(__file__).parent / "data"
    props = FileProps(
        path="src/toolview/contract/kinds.py",
        content=(data / "hundred_lines.py.txt").read_text(encoding="utf-8"),
        language="python",
        start_line=1,
    )
    drawn = _ansi(file_renderable(props, DEFAULT_LIMITS), 80, "standard")
    assert drawn == (data / "hundred_lines.ansi").read_text(encoding="utf-8")


def test_measures_as_syntax_does() -> None:
    console = Console(width=120)
    for code in (SAMPLES["long"].rstrip("\n"), "a\tb\nc", ""):
        ours = NumberedCode(code, lexer_for("python", None), "ansi_dark", 7)
        reference = Syntax(code, lexer_for("python", None), line_numbers=True, start_line=7)
        assert ours.__rich_measure__(console, console.options) == reference.__rich_measure__(
            console, console.options
        )
