"""Terminal neutralization: every injection form leaves nothing to obey."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import clean_text, neutralize_terminal

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_FORBIDDEN = re.compile(f"[\x1b\x80-\x9f{_BIDI}\u200b\ufeff]|\r(?!\n)")

INJECTIONS = [
    "\x1b]0;pwned title\x07after",
    "\x1b]2;title\x1b\\after",
    "\x1b]8;;https://evil.example\x1b\\click me\x1b]8;;\x1b\\",
    "\x1b]52;c;cm0gLXJmIH4=\x07",
    "\x1b]52;c;cm0gLXJmIH4=\x9c",
    "\x9d0;eight-bit title\x9c",
    "\x9d8;;https://evil\x07link\x9d8;;\x07",
    "\x1b[31mred\x1b[0m \x1b[1;38;5;208mrich\x1b[m",
    "\x1b[2J\x1b[H\x1b[3Acursor\x1b[K\x1b[?25l\x1b[6n",
    "\x9b2J\x9b31mC1 CSI",
    "\x1bPq#0;2;0;0;0#1!10~-\x1b\\",
    "\x90DCS body\x9c",
    "\x1bXsos\x1b\\ \x1b^pm\x1b\\ \x1b_apc\x1b\\",
    "\x98sos\x9c\x9epm\x9c\x9fapc\x9c",
    "\x1bc\x1b7\x1b8\x1bM\x1b(B\x1b)0\x1b#8\x1b=",
    "\x85\x84\x8d\x8e\x8f\x96\x97",
    "file\u202egnp.exe \u2066isolate\u2069 \u200emark\u200f \u061cal",
    "real\rfake",
    "abc\r\r\nline",
    "bell\x07 bs\x08\x08 nul\x00 del\x7f vt\x0b ff\x0c",
    "unterminated \x1b]0;title with no end",
    "\x1b]0;" + "x" * 10_000 + "\x07",
    "lone esc at end \x1b",
    "\x1b\x1b[31m double",
    "zero\u200bwidth\ufeffbom",
]


@pytest.mark.parametrize("text", INJECTIONS, ids=lambda t: repr(t[:16]))
def test_nothing_left_to_obey(text: str) -> None:
    out = neutralize_terminal(text)
    assert _FORBIDDEN.search(out) is None, repr(out)


def test_colours_and_links_are_removed_but_text_kept() -> None:
    out = neutralize_terminal("\x1b[31mred\x1b[0m \x1b]8;;https://e\x1b\\click\x1b]8;;\x1b\\")
    assert out == "red click"


def test_carriage_return_cannot_hide_text() -> None:
    assert neutralize_terminal("abc\rXYZ") == "abc␍XYZ"
    assert neutralize_terminal("a\r\nb") == "a\nb"


def test_controls_have_visible_forms() -> None:
    assert neutralize_terminal("\x07\x08\x00\x7f\x1b") == "␇␈␀␡␛"
    assert neutralize_terminal("\x85") == "<U+0085>"
    assert neutralize_terminal("a\u202eb") == "a<U+202E>b"


def test_tab_newline_and_unicode_are_kept() -> None:
    text = "col1\tcol2\nnaïve 日本語 👨‍👩‍👧 ✓"
    assert neutralize_terminal(text) == text


def test_unterminated_strings_do_not_swallow_text() -> None:
    out = neutralize_terminal("\x1b]0;title\nthe rest stays")
    assert "the rest stays" in out and "␛]" in out
    big = "\x1b]0;" + "y" * 10_000 + "\x07tail"
    assert neutralize_terminal(big).count("y") == 10_000


@pytest.mark.parametrize(
    "text",
    [
        "\x1b]" * 500_000,
        "\x9d" * 1_000_000,
        "\x1b[" * 500_000,
        "\r" * 1_000_000,
        "\x1bP" + "a" * 1_000_000,
        "\x1b[" + "1;" * 500_000,
    ],
    ids=["osc", "c1-osc", "csi", "cr", "dcs", "csi-params"],
)
def test_adversarial_megabyte_input_is_linear(text: str) -> None:
    start = time.thread_time()
    out = neutralize_terminal(text)
    assert _FORBIDDEN.search(out) is None
    assert time.thread_time() - start < 10.0  # quadratic would take hours


def test_clean_text_redacts_a_secret_split_by_escape_codes() -> None:
    token = "ghp_" + "Ab1" * 12
    out = clean_text(token[:9] + "\x1b[0m" + token[9:])
    assert out == "[redacted: github-token]"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_comes_out_clean(text: str) -> None:
    out = neutralize_terminal(text)
    assert isinstance(out, str)
    assert _FORBIDDEN.search(out) is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("\x1b[]P\\\x07\x9b\x9c\x9d\r\n;0a\u202e")))
def test_escape_soup_comes_out_clean(text: str) -> None:
    assert _FORBIDDEN.search(neutralize_terminal(text)) is None
    assert _FORBIDDEN.search(clean_text(text)) is None
