"""A waiting call in the AG-UI stream: the run pauses with an interrupt, a decision resumes it.

Why as the protocol's own interrupt (ag-ui-protocol 1.0): an AG-UI client
knows a run that ends with ``outcome: interrupt`` waits for a person, and
what it asks (``message``, the call's ``toolCallId``, an elicitation's
``responseSchema``). So a ``tool-waiting`` finishes the open run with one
interrupt; the call's ``tool-decision`` starts the next run with
``input.resume`` naming that interrupt (``resolved`` with the decision as
payload; ``cancelled`` for a deny), and the stream goes on in it.
"""

from __future__ import annotations

import msgspec
from ag_ui.core import (
    Interrupt,
    ResumeEntry,
    RunAgentInput,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunStartedEvent,
)

from toolview.contract import ToolDecision, ToolWaiting

__all__ = ["Interrupts"]


class Interrupts:
    """The interrupts a stream has sent and not yet resumed, by toolview call id."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.pending: dict[str, str] = {}  # toolview call id -> its open interrupt's id

    def ask(self, run_id: str, agui_id: str, waiting: ToolWaiting, seq: int) -> RunFinishedEvent:
        """The run's end: an interrupt for the waiting call."""
        interrupt_id = f"{agui_id}:ask-{seq}"
        self.pending[waiting.tool_call_id] = interrupt_id
        schema = waiting.schema if isinstance(waiting.schema, dict) else None
        question = waiting.question if isinstance(waiting.question, str) else None
        interrupt = Interrupt(
            id=interrupt_id,
            reason="input_required" if schema is not None else "tool_approval",
            message=question,
            tool_call_id=agui_id,
            response_schema=schema,
        )
        outcome = RunFinishedInterruptOutcome(interrupts=[interrupt])
        return RunFinishedEvent(thread_id=self.thread_id, run_id=run_id, outcome=outcome)

    def resume(self, decision: ToolDecision, seq: int) -> RunStartedEvent:
        """The next run, resuming the call's open interrupt (the caller checked ``pending``)."""
        interrupt_id = self.pending.pop(decision.tool_call_id)
        payload = msgspec.to_builtins(decision)
        entry = ResumeEntry(
            interrupt_id=interrupt_id,
            status="cancelled" if decision.decision == "deny" else "resolved",
            payload=payload,
        )
        run_id = f"{self.thread_id}:resume-{seq}"
        given = RunAgentInput(
            thread_id=self.thread_id,
            run_id=run_id,
            state={},
            messages=[],
            tools=[],
            context=[],
            forwarded_props={},
            resume=[entry],
        )
        return RunStartedEvent(thread_id=self.thread_id, run_id=run_id, input=given)
