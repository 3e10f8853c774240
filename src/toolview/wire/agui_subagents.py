"""Sub-agents and time on AG-UI events: what ``parentCallId`` and ``at`` become.

A sub-agent's observations carry ``parentCallId``, the call that ran it. AG-UI
has the same idea: SUBAGENT_STARTED announces an invocation (its
``parentToolCallId`` is that call), every event it produces carries its
``subagentRunId``, and SUBAGENT_FINISHED closes it. The official client's
verifier holds a stream to rules a thread does not have, so:
- an invocation starts at the first observation marked with its call (no
  earlier event says a sub-agent began) and finishes just before that call's
  final result, or before its run ends — a run never finishes with one open;
- an invocation id is never reused in a stream: marks that come again after
  it finished open a new one (an occurrence suffix);
- a nested sub-agent names the invocation its call belongs to, while that
  one is still open (the verifier knows only the current run's).

``at`` becomes every event's ``timestamp`` (milliseconds since the epoch,
what every AG-UI SDK puts there); an observation without one gives none.
"""

from __future__ import annotations

from ag_ui.core import BaseEvent, SubagentFinishedEvent, SubagentStartedEvent

from toolview.contract.moments import at_ms

__all__ = ["Subagents", "stamp"]


def stamp(events: list[BaseEvent], at: object, subagent: str | None = None) -> list[BaseEvent]:
    """``events`` with ``at`` as their timestamp and, where they take one, the invocation."""
    ms = at_ms(at)
    for event in events:
        if ms is not None:
            event.timestamp = ms
        if subagent is not None and "subagent_run_id" in type(event).model_fields:
            setattr(event, "subagent_run_id", subagent)  # noqa: B010 - not on BaseEvent
    return events


class Subagents:
    """The open sub-agent invocations of one stream, keyed by the AG-UI id of their call."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.open: dict[str, str] = {}  # call id (as it crossed) -> its open invocation id
        self.of_call: dict[str, str] = {}  # call id -> the invocation it belongs to, if any
        self.used: set[str] = set()

    def enter(
        self, call_id: str, name: str | None, agui_call_id: str
    ) -> tuple[str, list[BaseEvent]]:
        """The invocation for ``call_id``'s sub-agent, started now (its event) if not open."""
        invocation = self.open.get(call_id)
        if invocation is not None:
            return invocation, []
        base = f"{self.thread_id}:subagent-{agui_call_id}"
        invocation, n = base, 1
        while invocation in self.used:
            n += 1
            invocation = f"{base}~{n}"
        self.used.add(invocation)
        self.open[call_id] = invocation
        parent = self.of_call.get(call_id)
        started = SubagentStartedEvent(
            subagent_run_id=invocation,
            name=name or "sub-agent",
            parent_tool_call_id=agui_call_id,
            parent_subagent_run_id=parent if parent in self.open.values() else None,
        )
        return invocation, [started]

    def finish(self, call_id: str) -> list[BaseEvent]:
        """Close ``call_id``'s invocation (its call has its final result), if open."""
        invocation = self.open.pop(call_id, None)
        return [] if invocation is None else [SubagentFinishedEvent(subagent_run_id=invocation)]

    def finish_all(self) -> list[BaseEvent]:
        """Close every open invocation, the nested ones first (a run is ending)."""
        events: list[BaseEvent] = []
        for call_id in reversed(list(self.open)):
            events += self.finish(call_id)
        return events
