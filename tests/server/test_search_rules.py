"""What a reader's regex may hold: refused constructs, and ordinary patterns left alone."""

from __future__ import annotations

import pytest

from toolview.server.page.search.rules import REPEAT_LIMIT, refusal

REFUSED = [
    "(?fi)ß{200000}",
    "(?i)(?f)x",
    "a(?fi:b)",
    "(?V1)a",
    "(?V1:a)",
    "(?:a{10000000})",
    f"a{{{REPEAT_LIMIT + 1}}}",
    f"a{{2,{REPEAT_LIMIT + 1}}}",
    f"a{{{REPEAT_LIMIT + 1},}}",
    f"a{{,{REPEAT_LIMIT + 1}}}",
    "(?:(?:a{1000}){1000})",
    "(?:(?:a{40}){40})",
    "(?:[ab]{100}){11}",
    "(a+)+",
    "(a*)*",
    "(a+)*b",
    "(?:a+){2}",
    r"(\d+,)*",
    r"([\w.]+\s?)+$",
    "(?:x(?:a+)y)+",
    "(?:a|a)*",
    "(?P<n>ab|ab)+",
    "(?R)",
    "(a(?1)?b)",
    "(?&n)",
]
ALLOWED = [
    "needle",
    r"needle \d+",
    r"(?m)^needle 1\d$",
    f"a{{{REPEAT_LIMIT}}}",
    "(?:a{10}){100}",
    r"\p{L}{5}",
    r"\x{41}+",
    "[{}]+",
    "a{b",
    "a{}",
    r"\{1000000\}",
    "[a{9999}]",
    "[]a+]+",
    "(?i)ß{1000}",
    "(?:ab)+",
    "(?-i:x)",
    "(foo|bar)+",
    "(a|aa)*$",
    "(?:a?){3}",
    "(a+)?",
    "(?P<n>a)(?P=n)",
    "(?#{99999})x",
    "(?<=a)b(?=c)",
]


@pytest.mark.parametrize("pattern", REFUSED)
def test_a_construct_that_can_hold_the_engine_is_refused(pattern: str) -> None:
    assert refusal(pattern) is not None


@pytest.mark.parametrize("pattern", ALLOWED)
def test_an_ordinary_pattern_is_left_alone(pattern: str) -> None:
    assert refusal(pattern) is None
