"""The call ledger: the table and the run scoping, folded in one place, counts kept by state."""

from __future__ import annotations

import pytest

from toolview.contract.call_state import IllegalTransition
from toolview.contract.ledger import Ledger


def test_a_run_ending_reaches_its_own_calls_not_another_open_run_s() -> None:
    ledger = Ledger()
    ledger.run_started("A")
    ledger.run_started("B")
    ledger.open("b1")
    ledger.run_ended("A", "completed")
    assert ledger.state("b1") == "pending"
    assert ledger.counts["pending"] == 1
    ledger.run_ended("B", "aborted")
    assert ledger.state("b1") == "aborted"
    assert +ledger.counts == {"aborted": 1}


def test_a_run_started_again_reopens_its_aborted_calls() -> None:
    ledger = Ledger()
    ledger.run_started("A")
    ledger.open("c")
    ledger.run_ended("A", "aborted")
    ledger.run_started("A")
    assert ledger.state("c") == "pending"
    assert +ledger.counts == {"pending": 1}


def test_a_second_final_result_raises_and_changes_nothing() -> None:
    ledger = Ledger()
    ledger.open("c")
    ledger.result("c", "result-error")
    with pytest.raises(IllegalTransition):
        ledger.result("c", "result-error")
    assert +ledger.counts == {"error": 1}
    assert ledger.open_calls() == 0


def test_a_result_before_its_call_settles_the_call() -> None:
    ledger = Ledger()
    ledger.result("c", "result-ok")
    assert ledger.open("c") == "done"
    assert len(ledger) == 1
    assert +ledger.counts == {"done": 1}


def test_a_call_seen_after_its_run_ended_is_aborted_at_once() -> None:
    ledger = Ledger()
    ledger.run_started("A")
    ledger.run_ended("A", "completed")
    assert ledger.open("late") == "aborted"
    assert ledger.outcome(ledger.run_of("late")) == "completed"


def test_a_forgotten_call_is_no_longer_counted() -> None:
    ledger = Ledger()
    ledger.result("c", "result-ok")
    ledger.forget("c")
    assert "c" not in ledger
    assert +ledger.counts == {}


def test_pending_is_the_running_calls_in_the_order_they_appeared_across_runs() -> None:
    ledger = Ledger()
    ledger.run_started("A")
    ledger.open("a1")
    ledger.run_started("B")
    ledger.open("b1")
    ledger.open("b2")
    ledger.run_ended("B", "aborted")  # b1, b2 aborted: open, not running
    ledger.open("late")  # in no run now, after B ended: aborted at once
    ledger.result("a1", "partial")
    assert ledger.pending() == ["a1"]
    assert ledger.open_calls() == 4
    ledger.run_started("B")  # B's calls run again, in the order they first appeared
    assert ledger.pending() == ["a1", "b1", "b2", "late"]
    ledger.result("b1", "result-ok")
    ledger.result("a1", "result-error")
    assert ledger.pending() == ["b2", "late"]
    assert ledger.open_calls() == 2


def test_open_calls_is_read_from_the_counts_and_a_forgotten_call_leaves_them() -> None:
    ledger = Ledger()
    for call_id in ("x", "y", "z"):
        ledger.open(call_id)
    ledger.result("x", "result-ok")
    ledger.forget("x")
    assert ledger.open_calls() == 2 == ledger.counts["pending"]
    assert ledger.pending() == ["y", "z"]
