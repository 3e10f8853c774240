"""The message container: an ordered thread built from observations.

It pairs each ``tool-call`` with its result by ``toolCallId`` and holds, for
each call, its ``CallStateMachine`` (``call_state``): every result of the call
and every start and end of its run is sent through it, and ``state(entry)`` is
the one way to ask what state a call is in. It is sans-IO and renders nothing:
the surfaces (``toolview.render``) read it.

A result's ``text`` is accumulated, so a later result REPLACES the earlier one
(appending would duplicate output) — until the call is final: a partial after
that is ignored (legal, it changes nothing), and a second final result or
refusal is illegal, so the first stands and the second is kept on the call
(``CallEntry.ignored``) for every surface to show as a note, never dropped
silently. A result whose call never appeared is still shown; a line that could
not be read is kept as a visible note.

Runs: a call belongs to the run open when it first appeared. A call seen
outside any run counts as open until some run ends after it, and a run that
starts (again) reopens its calls, as the table says. A ``run-ended`` that says
why (its ``reason``) is the run's closing line: a note at that point of the
thread, and the reason every call the run aborted gives (``run_reason``).

Streams: a reader that draws entries as they settle takes them with
``drain`` and, once a final call is drawn, gives it back with ``release``:
the thread forgets its result (memory stays bounded by the calls still
open, not the thread) but remembers its id, so a later final result for it
is still ignored — and shown, as a note at that point (``NoteEntry.late``) —
and a late partial still changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from toolview.contract.call_state import (
    FINAL_STATES,
    CallEvent,
    CallState,
    CallStateMachine,
    IllegalTransition,
    result_event,
)
from toolview.contract.entries import (
    IGNORED_KEPT,
    CallEntry,
    Entry,
    MessageEntry,
    NoteEntry,
    run_closing_line,
)
from toolview.contract.moments import TimeSpan
from toolview.contract.observations import (
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)

__all__ = ["Thread"]


@dataclass
class Thread:
    """Ordered entries, one state machine per call, and the runs; feed it with ``add``."""

    entries: list[Entry] = field(default_factory=list)
    # every model turn's token counts, in order: the summary sums them per model
    usage: list[Usage] = field(default_factory=list)
    # the earliest and latest ``at`` of every observation added: the summary's time span
    span: TimeSpan = field(default_factory=TimeSpan)
    _calls: dict[str, CallEntry] = field(default_factory=dict, repr=False)
    _machines: dict[str, CallStateMachine] = field(default_factory=dict, repr=False)
    # calls not yet final, by run (None: outside any run): the run's events reach these
    _unsettled: dict[str | None, set[str]] = field(default_factory=dict, repr=False)
    _runs: dict[str, RunOutcome | None] = field(default_factory=dict, repr=False)
    _reasons: dict[str | None, str] = field(default_factory=dict, repr=False)
    _current_run: str | None = field(default=None, repr=False)
    _ended: RunOutcome | None = field(default=None, repr=False)
    # calls drawn and released by a stream: id -> tool name, for the note a late result gets
    _released: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_observations(cls, observations: Iterable[Observation]) -> Thread:
        """A thread holding ``observations`` in order."""
        thread = cls()
        for observation in observations:
            thread.add(observation)
        return thread

    def add(self, observation: Observation, descriptor_error: str | None = None) -> None:
        """Apply one observation.

        ``descriptor_error`` says a result arrived with a descriptor that broke
        the contract (it was dropped to read the rest): the call then shows its
        text with that note instead of a kind.
        """
        self.span.see(observation.at)
        if isinstance(observation, ToolCall | ToolResult | ToolRefused) and self._late(observation):
            return
        if isinstance(observation, ToolCall):
            self._entry(observation.tool_call_id).call = observation
        elif isinstance(observation, ToolResult | ToolRefused):
            self._result(observation, descriptor_error)
        elif isinstance(observation, RunStarted):
            self._run_started(observation.run_id)
        elif isinstance(observation, RunEnded):
            self._run_ended(observation)
        elif isinstance(observation, Usage):
            self.usage.append(observation)
        else:
            self.entries.append(MessageEntry(observation))

    def state(self, entry: CallEntry) -> CallState:
        """The state of ``entry`` (a call of this thread), as its state machine holds it."""
        return self._machines[entry.tool_call_id].state

    def call(self, tool_call_id: str) -> CallEntry | None:
        """The call with this ``toolCallId``, if the thread has seen it."""
        return self._calls.get(tool_call_id)

    def calls(self) -> list[CallEntry]:
        """Every call, in thread order."""
        return [entry for entry in self.entries if isinstance(entry, CallEntry)]

    def note(self, text: str) -> None:
        """Add a visible note at the current position."""
        self.entries.append(NoteEntry(text))

    def run_outcome(self, entry: CallEntry) -> RunOutcome | None:
        """How the call's run ended, or ``None`` while it is open (what an aborted call says)."""
        if entry.run_id is not None:
            return self._runs.get(entry.run_id)
        return self._ended

    def run_reason(self, entry: CallEntry) -> str | None:
        """Why the call's run ended, as its ``run-ended`` said (raw: a surface cleans it)."""
        if self.run_outcome(entry) is None:
            return None
        return self._reasons.get(entry.run_id if entry.run_id is not None else None)

    def drain(self) -> list[Entry]:
        """The entries added since the last drain, handed over to a reader that keeps them.

        A stream drains after each observation, so the thread holds no list of
        everything it has seen; every call still answers ``state`` and ``call``
        until it is released.
        """
        drained, self.entries = self.entries, []
        return drained

    def release(self, entry: CallEntry) -> None:
        """Forget a FINAL call a stream has drawn (and drained); only its id and tool name stay.

        Raises ``ValueError`` for a call still open: its state can still change.
        A released call must be out of ``entries`` (``drain``): it has no state left.
        """
        if self.state(entry) not in FINAL_STATES:
            raise ValueError(f"call {entry.tool_call_id!r} is not final; it cannot be released")
        del self._calls[entry.tool_call_id], self._machines[entry.tool_call_id]
        self._released[entry.tool_call_id] = entry.tool_name

    def _late(self, observation: ToolCall | ToolResult | ToolRefused) -> bool:
        """Whether ``observation`` is for a released call; a note says so when it is final."""
        tool_name = self._released.get(observation.tool_call_id)
        if tool_name is None:
            return False
        named = f"call {observation.tool_call_id} ({tool_name})"
        if isinstance(observation, ToolCall):
            self.note(f"{named}: its tool-call came again after the call was drawn; ignored")
        elif result_event(observation) != "partial":  # a late partial changes nothing
            self.entries.append(NoteEntry(f"{named}: ", late=observation))
        return True

    def _entry(self, tool_call_id: str) -> CallEntry:
        entry = self._calls.get(tool_call_id)
        if entry is None:
            entry = CallEntry(tool_call_id, run_id=self._current_run)
            machine = self._machines[tool_call_id] = CallStateMachine()
            if self.run_outcome(entry) is not None:  # seen after its run (or the last run) ended
                machine.send("run-ended")
            self._unsettled.setdefault(entry.run_id, set()).add(tool_call_id)
            self._calls[tool_call_id] = entry
            self.entries.append(entry)
        return entry

    def _result(self, result: ToolResult | ToolRefused, descriptor_error: str | None) -> None:
        entry = self._entry(result.tool_call_id)
        machine = self._machines[entry.tool_call_id]
        before = machine.state
        try:
            after = machine.send(result_event(result))
        except IllegalTransition:  # a second final result: the first stands, this one is shown
            entry.ignored_total += 1
            if len(entry.ignored) < IGNORED_KEPT:
                entry.ignored.append(result)
            return
        if before in FINAL_STATES:  # a late partial: legal, and it changes nothing
            return
        entry.result = result
        entry.descriptor_error = descriptor_error
        if after in FINAL_STATES:
            self._unsettled[entry.run_id].discard(entry.tool_call_id)

    def _run_started(self, run_id: str) -> None:
        self._runs[run_id] = None
        self._current_run = run_id
        self._ended = None
        self._send_to_run(run_id, "run-started")
        self._send_to_run(None, "run-started")

    def _run_ended(self, ended: RunEnded) -> None:
        run_id, outcome = ended.run_id, ended.outcome
        reason = ended.reason if isinstance(ended.reason, str) and ended.reason.strip() else None
        self._runs[run_id] = outcome
        self._said(run_id, reason)
        self._send_to_run(run_id, "run-ended")
        if self._current_run in (None, run_id):
            self._ended = outcome
            self._current_run = None
            self._said(None, reason)
            self._send_to_run(None, "run-ended")
        if reason is not None:
            self.note(run_closing_line(outcome, reason))

    def _said(self, run_id: str | None, reason: str | None) -> None:
        """Keep (or forget) why ``run_id`` ended: a run that ends again says it anew."""
        if reason is None:
            self._reasons.pop(run_id, None)
        else:
            self._reasons[run_id] = reason

    def _send_to_run(self, run_id: str | None, event: CallEvent) -> None:
        """``event`` to every call of the run not yet final.

        A final state takes the run's events as no-ops (the table says so), so
        only the calls still pending or aborted are sent them: a run event
        costs what it can change, not the size of the thread.
        """
        for tool_call_id in self._unsettled.get(run_id, ()):
            self._machines[tool_call_id].send(event)
