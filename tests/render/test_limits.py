"""Slicing before layout, in O(window), and the one wording for what was left out."""

from __future__ import annotations

import pytest

from toolview.contract import Truncation
from toolview.render import Limits, Omission, head, omission_text, tail, truncation_omission
from toolview.render.limits import EXACT_COUNT_CHARS


@pytest.mark.parametrize(
    ("count", "unit", "words"),
    [
        (4000, "lines", "… 4,000 more lines"),
        (1, "lines", "… 1 more line"),
        (1_234_567, "bytes", "… 1,234,567 more bytes"),
        (1, "bytes", "… 1 more byte"),
        (12, "items", "… 12 more items"),
        (1, "items", "… 1 more item"),
        (5, "chars", "… 5 more characters"),
    ],
)
def test_every_unit_is_worded(count: int, unit: str, words: str) -> None:
    assert omission_text(count, unit) == words  # type: ignore[arg-type]
    assert str(Omission(count, unit)) == words  # type: ignore[arg-type]


def test_descriptor_truncation_uses_the_same_wording() -> None:
    for unit in ("lines", "bytes", "items"):
        omission = truncation_omission(Truncation(10, 4010, unit))  # type: ignore[arg-type]
        assert str(omission) == omission_text(4000, unit)  # type: ignore[arg-type]
    assert truncation_omission(Truncation(5, 5, "lines")) is None
    assert truncation_omission(None) is None


def test_head_keeps_whole_text_within_bounds() -> None:
    for text in ("", "a", "a\nb", "a\nb\n"):
        window = head(text, 2, 100)
        assert (window.text, window.before, window.after) == (text, None, None)


def test_head_cuts_lines_and_counts_the_rest() -> None:
    window = head("a\nb\nc\nd\n", 2, 100)
    assert window.text == "a\nb"
    assert window.after == Omission(2, "lines")
    assert head("a\nb\nc", 2, 100).after == Omission(1, "lines")


def test_tail_cuts_lines_and_counts_the_rest() -> None:
    window = tail("a\nb\nc\nd\n", 2, 100)
    assert window.text == "c\nd\n"
    assert window.before == Omission(2, "lines")
    assert tail("a\nb", 2, 100).before is None


def test_a_single_long_line_is_cut_by_characters() -> None:
    assert head("x" * 50, 10, 20) == head("x" * 50, 10, 20)
    window = head("x" * 50, 10, 20)
    assert window.text == "x" * 20 and window.after == Omission(30, "chars")
    window = tail("y" * 50, 10, 20)
    assert window.text == "y" * 20 and window.before == Omission(30, "chars")


def test_a_huge_omission_is_worded_in_characters_to_bound_the_cost() -> None:
    text = "line\n" * (EXACT_COUNT_CHARS // 5 + 1000)
    window = tail(text, 3, 1000)
    assert window.text == "line\nline\nline\n"
    assert window.before is not None and window.before.unit == "chars"
    assert window.before.count == len(text) - len(window.text) - 1


def test_limits_are_plain_settings() -> None:
    assert Limits(max_lines=3).max_lines == 3
