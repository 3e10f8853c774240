"""``render.jsonlex.json_tokens`` is Pygments' ``JsonLexer``: the same tokens on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.render.highlight import lexer_for
from toolview.render.jsonlex import JsonLexer, json_tokens
from toolview.render.regexlex import tokens

_PIECES = [
    '"', '"k"', '"a\\"b"', "\\", "\\u", "\\u12", "\\u00e9", "\\uZ", "\\n", ":", ",", "{", "}",
    "[", "]", " ", "\n", "\t", "\r", "\r\n", "true", "false", "null", "tru", "nul", "fx", "-",
    "1", "0.5", "1e3", "2E+4", "--1--", "/", "//", "/*", "*/", "*", "x", "é", "\u2026", "…",
]  # fmt: skip
_TEXT = st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=50).map("".join)
_LEXER = JsonLexer(stripnl=False, ensurenl=True)


def _pygments(text: str) -> list[tuple[object, str]]:
    return list(_LEXER.get_tokens(text))


@settings(max_examples=1500, deadline=None)
@given(_TEXT)
def test_same_tokens_as_pygments_on_any_text(text: str) -> None:
    assert json_tokens(_LEXER._preprocess_lexer_input(text)) == _pygments(text)


def test_keys_strings_numbers_constants_and_quirks() -> None:
    samples = [
        '{"a": 1, "b": [true, null, -2.5e3], "c" /* x */ : "d"}',
        '{"path": "/tmp/\\u00e9\\u12"x", "n": 10}',
        '"unclosed \\" string',
        "/* unclosed comment",
        '[1, 2] // tail\n"k" \n : "v"',
        "/x / nope",
    ]
    for text in samples:
        assert json_tokens(_LEXER._preprocess_lexer_input(text)) == _pygments(text)


def test_the_json_lexer_is_lexed_here() -> None:
    """``regexlex.tokens`` answers the JSON lexer with these tokens (a list, not Pygments'
    generator), so every arguments line and ``json`` body takes this path."""
    got = tokens(lexer_for("json", None), '{"k": "v"}')
    assert isinstance(got, list)
    assert got == _pygments('{"k": "v"}')
