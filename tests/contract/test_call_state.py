"""The call-state table: the fixed order, and illegal events change nothing."""

from __future__ import annotations

import pytest

from toolview import (
    CALL_STATE_TRANSITIONS,
    CallStateMachine,
    Descriptor,
    IllegalTransition,
    ToolRefused,
    ToolResult,
    tool_result_state,
)

OK = ToolResult("c", "t", "out", complete=True, is_error=False)
ERROR = ToolResult(
    "c", "t", "boom", complete=True, is_error=True, descriptor=Descriptor("shell", {})
)
PARTIAL = ToolResult("c", "t", "ou", complete=False, is_error=False)
REFUSED = ToolRefused("c", "t", "no")


@pytest.mark.parametrize(
    ("result", "run_open", "state"),
    [
        (None, True, "pending"),
        (None, False, "aborted"),
        (PARTIAL, True, "pending"),
        (PARTIAL, False, "aborted"),
        (ERROR, True, "error"),
        (ERROR, False, "error"),
        (OK, True, "done"),
        (OK, False, "done"),
        (REFUSED, True, "refused"),
        (REFUSED, False, "refused"),
    ],
)
def test_fixed_order(result: ToolResult | None, run_open: bool, state: str) -> None:
    assert tool_result_state(result, run_open) == state


def test_error_wins_over_a_descriptor() -> None:
    assert ERROR.descriptor is not None
    assert tool_result_state(ERROR, run_open=True) == "error"


def test_illegal_transition_raises_and_changes_nothing() -> None:
    machine = CallStateMachine()
    machine.send("result-ok")
    with pytest.raises(IllegalTransition):
        machine.send("partial")
    assert machine.state == "done"
    with pytest.raises(IllegalTransition):
        machine.send("result-error")
    assert machine.state == "done"


def test_every_state_accepts_the_run_ending() -> None:
    states = {state for state, _ in CALL_STATE_TRANSITIONS} | set(CALL_STATE_TRANSITIONS.values())
    for state in states:
        assert (state, "run-ended") in CALL_STATE_TRANSITIONS
