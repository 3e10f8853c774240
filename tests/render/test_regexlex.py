"""``render.regexlex.combined_tokens`` (what ``tokens`` uses past a short text) is
``lexer.get_tokens``: the same tokens on any text, any lexer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import get_all_lexers, get_lexer_by_name  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

from toolview.render import regexlex
from toolview.render.firstchar import first_chars
from toolview.render.highlight import diff_lexer, lexer_for
from toolview.render.regexlex import combined_tokens as tokens

_NAMES = [
    "python", "typescript", "javascript", "go", "rust", "c", "cpp", "java", "ruby", "bash",
    "json", "yaml", "toml", "html", "css", "sql", "markdown", "diff", "text", "php", "kotlin",
]  # fmt: skip
_PIECES = [
    "def ", "class ", "fn ", "func ", "if ", "return ", "import ", "let ", "const ", " ", "\t",
    "\n", "\r\n", "\r", '"', "'", '"""', "`", "r'", "f\"", "b'", "rb\"", "Rb'", "F'", "{", "}",
    "(", ")", "[", "]", "<", ">", "/", "//", "/*", "*/", "#", "--", "\\", "\\n", "=", "+", "-",
    "@@ -1 +1 @@", "0x1F", "1.5e3", "42", "_", "x", "Name", "é", "\u2028", "\x00", "$", ";",
    ":", ",", ".", "${", "%s", "<!--", "-->", "<?php", "?>", "'''", "\ufeff",
]  # fmt: skip
_SUFFIXES = ["", "a", "0", " x", "\n", "'s'", '"', "=1", "/x/", "* c */", "(a)", "__"]
_TEXT = st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=60).map("".join)
_SAMPLE = Path(__file__).read_text() + Path(tokens.__code__.co_filename).read_text()


def _lexer(name: str) -> object:
    return diff_lexer() if name == "diff" else lexer_for(name, None)


@pytest.mark.parametrize("name", _NAMES)
@settings(max_examples=150, deadline=None)
@given(text=_TEXT)
def test_tokens_equal_pygments_on_any_text(name: str, text: str) -> None:
    lexer = _lexer(name)
    assert list(tokens(lexer, text)) == list(lexer.get_tokens(text))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", _NAMES)
def test_tokens_equal_pygments_on_source(name: str) -> None:
    lexer = _lexer(name)
    assert list(tokens(lexer, _SAMPLE)) == list(lexer.get_tokens(_SAMPLE))  # type: ignore[attr-defined]


def test_every_pygments_lexer_gives_its_own_tokens() -> None:
    """Whatever its rules hold (flags, backreferences, callbacks): the tokens are Pygments'."""
    text = _SAMPLE[:3000] + "".join(_PIECES)
    for _, aliases, _, _ in get_all_lexers():
        if not aliases:
            continue
        try:
            lexer = get_lexer_by_name(aliases[0], stripnl=False, ensurenl=True)
        except ClassNotFound:
            continue
        assert list(tokens(lexer, text)) == list(lexer.get_tokens(text)), aliases[0]


def test_a_lexer_with_filters_is_left_to_pygments() -> None:
    lexer = get_lexer_by_name("python", stripnl=False)
    lexer.add_filter("keywordcase", case="upper")
    assert ("def" in _SAMPLE) and list(tokens(lexer, _SAMPLE)) == list(lexer.get_tokens(_SAMPLE))
    assert "DEF" in {value for _, value in tokens(lexer, _SAMPLE)}


def test_first_chars_never_leaves_out_a_character_a_rule_matches() -> None:
    """Every rule of the surfaces' lexers, at each ASCII character followed by code."""
    for name in _NAMES:
        lexer = _lexer(name)
        for rules in getattr(lexer, "_tokens", {}).values():
            for rexmatch, _, _ in rules:
                pattern = getattr(rexmatch, "__self__", None)
                if not isinstance(pattern, re.Pattern):
                    continue
                chars = first_chars(pattern.pattern, type(lexer).flags)  # type: ignore[attr-defined]
                if chars is None:
                    continue
                for code in range(128):
                    for rest in _SUFFIXES:
                        if pattern.match(chr(code) + rest):
                            assert code in chars, (name, pattern.pattern, chr(code) + rest)


def test_a_short_text_does_not_compile_its_lexer_and_a_long_one_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Short texts use Pygments' loop until their budget is spent; the tokens are the same."""
    monkeypatch.setattr(regexlex, "_TABLES", {})
    monkeypatch.setattr(regexlex, "_SHORT_SPENT", {})
    lexer = get_lexer_by_name("python")
    short = "import os\n\nprint(os.sep)\n"
    assert list(regexlex.tokens(lexer, short)) == list(lexer.get_tokens(short))
    assert not regexlex._TABLES[type(lexer)]  # no state compiled
    long = short * (regexlex.SHORT // len(short) + 1)
    assert list(regexlex.tokens(lexer, long)) == list(lexer.get_tokens(long))
    assert regexlex._TABLES[type(lexer)]  # compiled: every text goes through it now
    spent = regexlex._SHORT_SPENT[type(lexer)]
    assert list(regexlex.tokens(lexer, short)) == list(lexer.get_tokens(short))
    assert regexlex._SHORT_SPENT[type(lexer)] == spent


def test_short_texts_compile_their_lexer_once_they_add_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(regexlex, "_TABLES", {})
    monkeypatch.setattr(regexlex, "_SHORT_SPENT", {})
    lexer = get_lexer_by_name("rust")
    short = "fn main() { let x = 1; }\n" * 40
    for _ in range(regexlex.SHORT_BUDGET // len(short)):
        list(regexlex.tokens(lexer, short))
    assert not regexlex._TABLES[type(lexer)]
    assert list(regexlex.tokens(lexer, short)) == list(lexer.get_tokens(short))
    assert regexlex._TABLES[type(lexer)]
