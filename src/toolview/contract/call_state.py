"""Which state a tool call is in, decided by one transition table.

h11 is the model: the table is the whole truth, and an illegal event raises
``IllegalTransition`` and leaves the machine as it was. The ledger
(``contract.ledger``) holds one machine per call and sends it every result of
that call and every start and end of the call's run, so the state is the live
truth, never re-derived.

The fixed order of the design falls out of the table: no final result while
the run is open is ``pending``; no final result once the run is over is
``aborted``; an error result is ``error`` (its descriptor is never
consulted); otherwise ``done``. A call a guard refused never ran: ``refused``.

Decisions the table spells out:
- ``done``, ``error`` and ``refused`` are FINAL: the first final result (or
  refusal) stands. A second one is illegal — the ``Thread`` catches the
  ``IllegalTransition`` and keeps the second visibly, as a note on the call.
- A partial after a final result is a legal no-op (a slow stream's last chunk
  arriving after the end is normal, not a fault): the state stays, and the
  ``Thread`` keeps the final result.
- ``aborted`` is not final: a result that arrives after its run ended still
  stands (it is the truth; "aborted" only said none had come), and a run that
  starts again (the same run id, or, for a call outside any run, any run)
  makes its calls ``pending`` once more.
- The run's events never change a final state.
- A call that waits for a person (``asked``) is ``needs_input``; a decision
  (``decided``) sends it back to ``pending`` — the agent now runs it, or
  reports the denial, and its result settles it. A decision for a call in
  any other state is illegal: a decision applies once, and only to a call
  that waits. Its own result (the person answered in the agent's prompt)
  or its run ending settle a waiting call as they settle a running one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from toolview.contract.observations import ToolRefused, ToolResult, is_partial

__all__ = [
    "CALL_STATE_TRANSITIONS",
    "FINAL_STATES",
    "IN_FLIGHT",
    "CallEvent",
    "CallState",
    "CallStateMachine",
    "IllegalTransition",
    "result_event",
]

CallState: TypeAlias = Literal["pending", "needs_input", "aborted", "error", "done", "refused"]
CallEvent: TypeAlias = Literal[
    "partial",
    "result-ok",
    "result-error",
    "refused",
    "run-started",
    "run-ended",
    "asked",
    "decided",
]

FINAL_STATES: Final[frozenset[CallState]] = frozenset({"done", "error", "refused"})
"""States no later result changes: the first final result (or refusal) stands."""

IN_FLIGHT: Final[frozenset[CallState]] = frozenset({"pending", "needs_input"})
"""A call in flight: its run is open and no final result came (it may wait for a person)."""

CALL_STATE_TRANSITIONS: Final[dict[tuple[CallState, CallEvent], CallState]] = {
    # waiting: output may stream in; a final result or refusal settles it
    ("pending", "partial"): "pending",
    ("pending", "result-ok"): "done",
    ("pending", "result-error"): "error",
    ("pending", "refused"): "refused",
    ("pending", "run-started"): "pending",
    ("pending", "run-ended"): "aborted",
    ("pending", "asked"): "needs_input",
    # waiting for a person: one decision sends it back to running; its result settles it
    ("needs_input", "asked"): "needs_input",
    ("needs_input", "decided"): "pending",
    ("needs_input", "partial"): "needs_input",
    ("needs_input", "result-ok"): "done",
    ("needs_input", "result-error"): "error",
    ("needs_input", "refused"): "refused",
    ("needs_input", "run-started"): "needs_input",
    ("needs_input", "run-ended"): "aborted",
    # the run ended first: a late result still stands; the run reopening revives the call
    ("aborted", "partial"): "aborted",
    ("aborted", "result-ok"): "done",
    ("aborted", "result-error"): "error",
    ("aborted", "refused"): "refused",
    ("aborted", "run-started"): "pending",
    ("aborted", "run-ended"): "aborted",
    # final: a late partial and the run's events change nothing; a second final is illegal
    ("done", "partial"): "done",
    ("done", "run-started"): "done",
    ("done", "run-ended"): "done",
    ("error", "partial"): "error",
    ("error", "run-started"): "error",
    ("error", "run-ended"): "error",
    ("refused", "partial"): "refused",
    ("refused", "run-started"): "refused",
    ("refused", "run-ended"): "refused",
}


class IllegalTransition(ValueError):
    """An event the table does not allow in the current state."""

    def __init__(self, state: CallState, event: CallEvent) -> None:
        super().__init__(f"{event!r} is not allowed in state {state!r}")
        self.state = state
        self.event = event


@dataclass
class CallStateMachine:
    """One call's state; ``send`` applies an event through the table.

    Compared by state, so two threads fed the same observations are equal.
    """

    state: CallState = "pending"

    def send(self, event: CallEvent) -> CallState:
        """Apply ``event``; raise ``IllegalTransition`` and change nothing if illegal."""
        next_state = CALL_STATE_TRANSITIONS.get((self.state, event))
        if next_state is None:
            raise IllegalTransition(self.state, event)
        self.state = next_state
        return next_state


def result_event(result: ToolResult | ToolRefused) -> CallEvent:
    """The event a result observation is, for the table."""
    if isinstance(result, ToolRefused):
        return "refused"
    if is_partial(result):
        return "partial"
    return "result-error" if result.is_error else "result-ok"
