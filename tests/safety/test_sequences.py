"""Every reader of escape sequences ends a string sequence where ``safety.sequences`` says.

A refactor guard: the terminal cleaner, the styled-output parser and what
redaction takes out each built their own string-sequence pattern once; they
now share one, and must agree on its edges (the body's longest length, a
newline in it, each 7- and 8-bit introducer, each terminator).
"""

from __future__ import annotations

import pytest

from toolview.safety.ansi import parse_output
from toolview.safety.sequences import STRING_C1, STRING_MAX, STRING_OPENERS, STRINGS, TAKEN_OUT
from toolview.safety.terminal import neutralize_terminal

INTRODUCERS = ["\x1b" + opener for opener in STRING_OPENERS] + list(STRING_C1)


@pytest.mark.parametrize("end", ["\x07", "\x1b\\", "\x9c"], ids=ascii)
@pytest.mark.parametrize("introducer", INTRODUCERS, ids=ascii)
def test_a_body_at_the_longest_is_a_sequence_everywhere(introducer: str, end: str) -> None:
    text = f"a{introducer}{'x' * STRING_MAX}{end}b"
    assert STRINGS.search(text) is not None and TAKEN_OUT.sub("", text) == "ab"
    assert neutralize_terminal(text) == "ab"
    assert parse_output(text).text == "ab"


@pytest.mark.parametrize("body", ["x" * (STRING_MAX + 1), "x\ny"], ids=["long", "newline"])
@pytest.mark.parametrize("introducer", INTRODUCERS, ids=ascii)
def test_a_longer_body_or_one_across_a_line_is_none(introducer: str, body: str) -> None:
    text = f"a{introducer}{body}\x07b"
    assert STRINGS.search(text) is None
    shown = neutralize_terminal(text)
    assert body.replace("\n", "") in shown.replace("\n", "")  # nothing swallowed
    assert body.split("\n")[0] in parse_output(text).text
