"""Delta encoding: the smallest op is chosen, and applying it is always exact."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.wire.delta import Append, DeltaError, Reset, Slide, apply, diff


def test_growth_is_an_append_of_only_the_new_text() -> None:
    assert diff("hello", "hello world") == Append(" world")


def test_first_text_is_a_reset() -> None:
    assert diff(None, "abc") == Reset("abc")


def test_a_tail_window_dropping_its_head_is_a_slide() -> None:
    old = "".join(f"line {n}\n" for n in range(100))
    new = "".join(f"line {n}\n" for n in range(10, 130))
    delta = diff(old, new)
    assert isinstance(delta, Slide)
    assert delta.drop == len("".join(f"line {n}\n" for n in range(10)))
    assert delta.text == "".join(f"line {n}\n" for n in range(100, 130))
    assert apply(old, delta) == new


def test_anything_else_is_a_reset() -> None:
    assert diff("abcdef", "something else entirely") == Reset("something else entirely")


def test_repetitive_text_still_round_trips() -> None:
    old = "." * 5000
    new = "." * 4000 + "!" * 10
    assert apply(old, diff(old, new)) == new


def test_an_append_without_a_base_is_a_gap() -> None:
    with pytest.raises(DeltaError):
        apply(None, Append("x"))


def test_a_slide_past_the_text_is_a_gap() -> None:
    with pytest.raises(DeltaError):
        apply("abc", Slide(10, "x"))


@given(st.none() | st.text(max_size=300), st.text(max_size=300))
def test_apply_of_diff_is_exact(old: str | None, new: str) -> None:
    assert apply(old, diff(old, new)) == new


@given(st.text(min_size=80, max_size=400), st.integers(1, 79), st.text(max_size=100))
def test_a_window_slide_never_costs_more_than_the_new_text(old: str, drop: int, added: str) -> None:
    new = old[drop:] + added
    delta = diff(old, new)
    assert apply(old, delta) == new
    assert len(delta.text) <= len(new)
