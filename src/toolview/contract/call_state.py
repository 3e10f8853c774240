"""Which state a tool call is in, decided by one transition table.

h11 is the model: the table is the whole truth, and an illegal event raises
``IllegalTransition`` and leaves the machine as it was. The fixed order of the
design falls out of it: no final result while the run is open is ``pending``;
no final result once the run is over is ``aborted``; an error result is
``error`` (its descriptor is never consulted); otherwise ``done``. A call a
guard refused never ran: it is ``refused``.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from toolview.contract.observations import ToolRefused, ToolResult

__all__ = [
    "CALL_STATE_TRANSITIONS",
    "CallEvent",
    "CallState",
    "CallStateMachine",
    "IllegalTransition",
    "tool_result_state",
]

CallState: TypeAlias = Literal["pending", "aborted", "error", "done", "refused"]
CallEvent: TypeAlias = Literal["partial", "result-ok", "result-error", "refused", "run-ended"]

CALL_STATE_TRANSITIONS: Final[dict[tuple[CallState, CallEvent], CallState]] = {
    ("pending", "partial"): "pending",
    ("pending", "result-ok"): "done",
    ("pending", "result-error"): "error",
    ("pending", "refused"): "refused",
    ("pending", "run-ended"): "aborted",
    ("done", "run-ended"): "done",
    ("error", "run-ended"): "error",
    ("refused", "run-ended"): "refused",
    ("aborted", "run-ended"): "aborted",
}


class IllegalTransition(ValueError):
    """An event the table does not allow in the current state."""


class CallStateMachine:
    """One call's state; ``send`` applies an event through the table."""

    def __init__(self) -> None:
        self.state: CallState = "pending"

    def send(self, event: CallEvent) -> CallState:
        """Apply ``event``; raise ``IllegalTransition`` and change nothing if illegal."""
        next_state = CALL_STATE_TRANSITIONS.get((self.state, event))
        if next_state is None:
            raise IllegalTransition(f"{event!r} is not allowed in state {self.state!r}")
        self.state = next_state
        return next_state


def result_event(result: ToolResult | ToolRefused) -> CallEvent:
    """The event a result observation is, for the table."""
    if isinstance(result, ToolRefused):
        return "refused"
    if not result.complete:
        return "partial"
    return "result-error" if result.is_error else "result-ok"


def tool_result_state(result: ToolResult | ToolRefused | None, run_open: bool) -> CallState:
    """The state of a call given its latest result (or none) and whether its run is open."""
    machine = CallStateMachine()
    if result is not None:
        machine.send(result_event(result))
    if not run_open:
        machine.send("run-ended")
    return machine.state
