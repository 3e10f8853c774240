"""The call-state table: the fixed order, the decisions it spells out, illegal events."""

from __future__ import annotations

from itertools import product
from typing import get_args

import pytest

from toolview import (
    CALL_STATE_TRANSITIONS,
    FINAL_STATES,
    CallEvent,
    CallState,
    CallStateMachine,
    IllegalTransition,
    ToolRefused,
    ToolResult,
)
from toolview.contract.call_state import result_event

STATES: tuple[CallState, ...] = get_args(CallState)
EVENTS: tuple[CallEvent, ...] = get_args(CallEvent)
FINAL_EVENTS: tuple[CallEvent, ...] = ("result-ok", "result-error", "refused")


def machine_in(*events: CallEvent) -> CallStateMachine:
    machine = CallStateMachine()
    for event in events:
        machine.send(event)
    return machine


@pytest.mark.parametrize(
    ("events", "state"),
    [
        ((), "pending"),
        (("run-ended",), "aborted"),
        (("partial",), "pending"),
        (("partial", "run-ended"), "aborted"),
        (("result-error",), "error"),
        (("result-error", "run-ended"), "error"),
        (("result-ok",), "done"),
        (("result-ok", "run-ended"), "done"),
        (("refused",), "refused"),
        (("refused", "run-ended"), "refused"),
    ],
)
def test_fixed_order(events: tuple[CallEvent, ...], state: CallState) -> None:
    assert machine_in(*events).state == state


def test_an_error_result_is_an_error_whatever_its_descriptor() -> None:
    error = ToolResult("c", "t", "boom", complete=True, is_error=True)
    assert result_event(error) == "result-error"
    assert result_event(ToolResult("c", "t", "ou", complete=False, is_error=True)) == "partial"
    assert result_event(ToolRefused("c", "t", "no")) == "refused"


@pytest.mark.parametrize(("final", "event"), list(product(sorted(FINAL_STATES), FINAL_EVENTS)))
def test_a_second_final_result_is_illegal_and_changes_nothing(
    final: CallState, event: CallEvent
) -> None:
    first = {"done": "result-ok", "error": "result-error", "refused": "refused"}[final]
    machine = machine_in(first)  # type: ignore[arg-type]
    with pytest.raises(IllegalTransition) as raised:
        machine.send(event)
    assert machine.state == final
    assert (raised.value.state, raised.value.event) == (final, event)


def test_the_only_illegal_events_are_second_final_results_and_misplaced_asks() -> None:
    """A second final result; a decision for a call that does not wait; an ask once settled."""
    illegal = {pair for pair in product(STATES, EVENTS) if pair not in CALL_STATE_TRANSITIONS}
    undecidable = {state for state in STATES if state != "needs_input"}
    unaskable = {"aborted", *FINAL_STATES}
    assert illegal == (
        set(product(FINAL_STATES, FINAL_EVENTS))
        | set(product(undecidable, ["decided"]))
        | set(product(unaskable, ["asked"]))
    )


@pytest.mark.parametrize("final", sorted(FINAL_STATES))
def test_a_final_state_ignores_late_partials_and_the_runs_events(final: CallState) -> None:
    for event in ("partial", "run-started", "run-ended"):
        assert CALL_STATE_TRANSITIONS[(final, event)] == final


def test_a_result_after_the_run_ended_still_stands() -> None:
    assert machine_in("run-ended", "result-ok").state == "done"
    assert machine_in("run-ended", "result-error").state == "error"
    assert machine_in("run-ended", "refused").state == "refused"
    assert machine_in("run-ended", "partial").state == "aborted"


def test_a_run_starting_again_revives_an_aborted_call() -> None:
    assert machine_in("run-ended", "run-started").state == "pending"
    assert machine_in("run-started", "run-started").state == "pending"
    assert machine_in("run-ended", "run-started", "run-ended").state == "aborted"
