"""The message container: an ordered thread built from observations.

It pairs each ``tool-call`` with its result by ``toolCallId``; each call's
state is the thread's ``ledger`` (``contract.ledger``, the fold every consumer
reads): every result of the call and every start and end of its run goes
through it, and ``state(entry)`` is the one way to ask what state a call is in.
It is sans-IO and renders nothing: the surfaces (``toolview.render``) read it.

A result's ``text`` is accumulated, so a later result REPLACES the earlier one
(appending would duplicate output) — until the call is final: a partial after
that is ignored (legal, it changes nothing), and a second final result or
refusal is illegal, so the first stands and the second is kept on the call
(``CallEntry.ignored``) for every surface to show as a note, never dropped
silently. A result whose call never appeared is still shown; a line that could
not be read is kept as a visible note.

Runs (scoped by the ledger): a call belongs to the run open when it first appeared. A call seen
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

Sub-agents: an observation marked ``parentCallId`` goes to the child thread
under that call (``child``), marks of marks nesting deeper (see
``contract.nesting``); a child thread is a ``Thread`` of its own (its entries,
calls, states, usage), and the thread's runs reach the calls of its children
that are outside any run of their own, as they reach its own such calls.
``entries``, ``call`` and ``calls`` are the thread's own; ``top_call_id``
says which of its calls an observation at any depth is under.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from toolview.contract.call_state import (
    FINAL_STATES,
    CallEvent,
    CallState,
    IllegalTransition,
    result_event,
)
from toolview.contract.counts import SessionCounts, thread_counts
from toolview.contract.entries import (
    IGNORED_KEPT,
    CallEntry,
    Entry,
    MessageEntry,
    NoteEntry,
    Trimmed,
    run_closing_line,
)
from toolview.contract.gist import thread_gist
from toolview.contract.ledger import Ledger
from toolview.contract.moments import TimeSpan
from toolview.contract.nesting import Nesting
from toolview.contract.observations import (
    CALL_OBSERVATIONS,
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
    Usage,
)

__all__ = ["MAX_NESTING", "Thread"]

MAX_NESTING: Final = 32
"""Levels of sub-agents a thread nests; a mark deeper than that goes to the deepest level.

Why: a hostile stream can mark each call with the one before it; every walk
over the levels (settled, a run's end, a release, a copy) stays shallow.
"""


@dataclass(repr=False)
class Thread:
    """Ordered entries, one state machine per call, and the runs; feed it with ``add``.

    ``repr``/``str`` are counts only (``contract.gist``): never a tool's text.
    """

    entries: list[Entry] = field(default_factory=list)
    # every model turn's token counts, in order: the summary sums them per model
    usage: list[Usage] = field(default_factory=list)
    # the earliest and latest ``at`` of every observation added: the summary's time span
    span: TimeSpan = field(default_factory=TimeSpan)
    _calls: dict[str, CallEntry] = field(default_factory=dict, repr=False)
    # every call's state and run, and how the runs ended: the one truth (``contract.ledger``)
    ledger: Ledger = field(default_factory=Ledger, repr=False)
    _reasons: dict[str | None, str] = field(default_factory=dict, repr=False)
    # calls drawn and released by a stream: id -> tool name, for the note a late result gets
    _released: dict[str, str] = field(default_factory=dict, repr=False)
    # the sub-agent's thread under each of this thread's calls that ran one
    _children: dict[str, Thread] = field(default_factory=dict, repr=False)
    # the counts of the sub-agents dropped with their call (released, trimmed): still counted
    gone_below: SessionCounts = field(default_factory=SessionCounts, repr=False)
    # the root's index of the calls its children hold (a child thread has none)
    _nesting: Nesting[Thread] | None = field(default_factory=Nesting, repr=False)
    # a stream's bound on sub-agents: settled entries past the first ``sub_keep`` of a
    # sub-agent's thread (none below ``sub_depth`` levels) are only counted (``trimmed``)
    sub_keep: int | None = None
    sub_depth: int = 0
    trimmed: Trimmed = field(default_factory=Trimmed, repr=False)
    _level: int = field(default=0, repr=False)

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
        if self._nesting is not None:
            placed = self._place(observation, self._nesting)
            if placed is not None:
                thread, top = placed
                thread._apply(observation, descriptor_error)
                call_id = getattr(observation, "tool_call_id", None)
                if isinstance(call_id, str) and call_id in thread._calls:
                    self._nesting.hold(thread, call_id, top)
                if self.sub_keep is not None:
                    keep = self.sub_keep if thread._level <= self.sub_depth else 0
                    self._trim(thread, keep, self._nesting)
                return
        self._apply(observation, descriptor_error)

    def __repr__(self) -> str:
        calls = self.calls()
        messages = sum(isinstance(entry, MessageEntry) for entry in self.entries)
        return thread_gist((self.state(entry) for entry in calls), messages)

    __str__ = __repr__

    def child(self, tool_call_id: str) -> Thread | None:
        """The sub-agent's thread under this thread's call ``tool_call_id``, if it ran one."""
        return self._children.get(tool_call_id)

    def children(self) -> list[Thread]:
        """The sub-agents' threads under this thread's calls (not deeper), in order."""
        return list(self._children.values())

    def counts(self) -> SessionCounts:
        """The thread's counts, its sub-agents' included (``contract.counts``: the one home)."""
        return thread_counts(self)

    def top_call_id(self, tool_call_id: str) -> str | None:
        """This (root) thread's call that ``tool_call_id`` is, or is under at any depth."""
        if self._nesting is None:
            return tool_call_id if tool_call_id in self._calls else None
        found = self._nesting.holder(self, self._calls, tool_call_id)
        return None if found is None else found[1]

    def open_calls(self) -> int:
        """How many of the thread's own calls are not final (a sub-agent still working has some)."""
        return self.ledger.open_calls()

    def pending(self) -> list[CallEntry]:
        """The thread's own calls running now, in order: the ledger's ``pending``, O(open calls)."""
        return [e for i in self.ledger.pending() if (e := self._calls.get(i)) is not None]

    def settled(self, entry: CallEntry) -> bool:
        """Whether ``entry`` is final and so is every call of its sub-agent, at every depth."""
        if self.state(entry) not in FINAL_STATES:
            return False
        child = self._children.get(entry.tool_call_id)
        return child is None or child._all_settled()

    def _all_settled(self) -> bool:
        return not self.open_calls() and all(c._all_settled() for c in self._children.values())

    def _place(
        self, observation: Observation, nesting: Nesting[Thread]
    ) -> tuple[Thread, str] | None:
        """The child thread ``observation`` belongs in and the root call above it; ``None``: here.

        A call's own observations go where the call is (ids are unique across
        the stream); otherwise the mark decides. A mark naming no call held
        gets a placeholder call here, kept visibly (``CallEntry.orphan``).
        """
        if isinstance(observation, CALL_OBSERVATIONS):
            found = nesting.holder(self, self._calls, observation.tool_call_id)
            if found is not None:
                return None if found[0] is self else found
        mark = observation.parent_call_id
        if not isinstance(mark, str) or mark == getattr(observation, "tool_call_id", None):
            return None  # unmarked, or a call marked as its own sub-agent's: the mark is void
        holder = nesting.holder(self, self._calls, mark)
        if holder is None:
            self._entry(mark).orphan = "late" if mark in self._released else "unseen"
            self._released.pop(mark, None)
            holder = (self, mark)
        thread, top = holder
        if thread._level >= MAX_NESTING:  # deeper is kept, one level up, not a step further
            return None if thread is self else (thread, top)
        child = thread._children.get(mark)
        if child is None:
            child = thread._children[mark] = Thread(_nesting=None, _level=thread._level + 1)
        return child, top

    def _apply(self, observation: Observation, descriptor_error: str | None) -> None:
        """Apply ``observation`` to this thread's own entries (it was placed here)."""
        if isinstance(observation, ToolCall):
            self._entry(observation.tool_call_id).call = observation
            self.ledger.named(observation.tool_call_id, observation.tool_name, _at(observation))
        elif isinstance(observation, ToolResult | ToolRefused):
            self._result(observation, descriptor_error)
        elif isinstance(observation, RunStarted):
            self._run_started(observation.run_id)
        elif isinstance(observation, RunEnded):
            self._run_ended(observation)
        elif isinstance(observation, Usage):
            self.usage.append(observation)
        elif isinstance(observation, ToolWaiting):
            self._waiting(observation)
        elif isinstance(observation, ToolDecision):
            self._decided(observation)
        else:
            self.entries.append(MessageEntry(observation))

    def state(self, entry: CallEntry) -> CallState:
        """The state of ``entry`` (a call of this thread), as the ledger holds it."""
        return self.ledger.state(entry.tool_call_id)

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
        return self.ledger.outcome(entry.run_id)

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
        del self._calls[entry.tool_call_id]
        self.ledger.forget(entry.tool_call_id)
        self._released[entry.tool_call_id] = entry.tool_name
        child = self._children.pop(entry.tool_call_id, None)
        if child is not None:
            self.gone_below = self.gone_below.plus(child.counts())
        if child is not None and self._nesting is not None:  # its sub-agent goes with it
            gone = dict(child._every_call())
            self._nesting.forget(gone)
            self._released.update(gone)

    def _trim(self, thread: Thread, keep: int, nesting: Nesting[Thread]) -> None:
        """Forget ``thread``'s settled entries past its first ``keep``, counting them."""
        if len(thread.entries) <= keep:
            return
        kept = thread.entries[:keep]
        for entry in thread.entries[keep:]:
            if isinstance(entry, CallEntry) and not thread.settled(entry):
                kept.append(entry)  # still open: it may yet change
                continue
            thread.trimmed.entries += 1
            if isinstance(entry, MessageEntry):
                thread.trimmed.saw(entry.message.at)
            if isinstance(entry, CallEntry):  # its id stays known: a late result is a note
                gone = thread._forget(entry)
                nesting.forget(gone)
                self._released.update(gone)
        thread.entries = kept

    def _forget(self, entry: CallEntry) -> dict[str, str]:
        """Count a settled call of this (sub-agent's) thread and drop it, its sub-agent too;
        the ids and tool names of every call dropped."""
        self.trimmed.calls += 1
        self.trimmed.failed += self.state(entry) == "error"
        for observation in (entry.call, entry.result):
            self.trimmed.saw(getattr(observation, "at", None))
        del self._calls[entry.tool_call_id]
        self.ledger.forget(entry.tool_call_id)
        child = self._children.pop(entry.tool_call_id, None)
        if child is not None:
            self.gone_below = self.gone_below.plus(child.counts())
        gone = dict(child._every_call()) if child is not None else {}
        gone[entry.tool_call_id] = entry.tool_name
        return gone

    def _every_call(self) -> Iterator[tuple[str, str]]:
        """Each call's id and tool name, this thread's and its sub-agents', at every depth."""
        for call_id, entry in self._calls.items():
            yield call_id, entry.tool_name
        for child in self._children.values():
            yield from child._every_call()

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
            self.ledger.open(tool_call_id)  # aborted at once if seen after its run ended
            entry = CallEntry(tool_call_id, run_id=self.ledger.run_of(tool_call_id))
            self._calls[tool_call_id] = entry
            self.entries.append(entry)
        return entry

    def _result(self, result: ToolResult | ToolRefused, descriptor_error: str | None) -> None:
        entry = self._entry(result.tool_call_id)
        before = self.ledger.state(entry.tool_call_id)
        try:
            self.ledger.result(entry.tool_call_id, result_event(result), _at(result))
        except IllegalTransition:  # a second final result: the first stands, this one is shown
            entry.ignored_total += 1
            if len(entry.ignored) < IGNORED_KEPT:
                entry.ignored.append(result)
            return
        if before in FINAL_STATES:  # a late partial: legal, and it changes nothing
            return
        entry.result = result
        entry.descriptor_error = descriptor_error

    def _waiting(self, waiting: ToolWaiting) -> None:
        """The call waits for a person (a call not seen yet is held, as a result before it is)."""
        if waiting.tool_call_id in self._released:
            self.note(
                f"call {waiting.tool_call_id}: it was asked about after it was drawn; ignored"
            )
            return
        entry = self._entry(waiting.tool_call_id)
        try:
            self.ledger.result(entry.tool_call_id, "asked")
        except IllegalTransition:
            self.note(f"call {entry.tool_call_id}: asked about after it was settled; ignored")
            return
        entry.waiting = waiting

    def _decided(self, decision: ToolDecision) -> None:
        """A person's decision: applied once, to a call that waits; otherwise refused, visibly."""
        entry = self._calls.get(decision.tool_call_id)
        try:
            if entry is None:
                raise KeyError(decision.tool_call_id)
            self.ledger.decide(entry.tool_call_id)
        except (KeyError, IllegalTransition):
            self.note(
                f"call {decision.tool_call_id}: a decision ({decision.decision}) came "
                "when it did not wait; refused, nothing changed"
            )
            return
        entry.decision = decision

    def _run_started(self, run_id: str) -> None:
        self.ledger.run_started(run_id)
        self._said(None, None)
        self._children_outer("run-started", None, None)

    def _run_ended(self, ended: RunEnded) -> None:
        run_id, outcome = ended.run_id, ended.outcome
        reason = ended.reason if isinstance(ended.reason, str) and ended.reason.strip() else None
        self._said(run_id, reason)
        if self.ledger.run_ended(run_id, outcome):
            self._said(None, reason)
            self._children_outer("run-ended", outcome, reason)
        if reason is not None:
            self.note(run_closing_line(outcome, reason))

    def _children_outer(
        self, event: CallEvent, ended: RunOutcome | None, reason: str | None
    ) -> None:
        """A run starts or ends around the calls outside any run of every child, at every depth.

        A sub-agent's calls run inside its parent's run, so the run that ends
        its parent's calls ends theirs (unless the sub-agent has runs of its own).
        """
        for child in self._children.values():
            if child.ledger.current_run is None:
                child.ledger.outer(event, ended)
                child._said(None, reason)
                child._children_outer(event, ended, reason)

    def _said(self, run_id: str | None, reason: str | None) -> None:
        """Keep (or forget) why ``run_id`` ended: a run that ends again says it anew."""
        if reason is None:
            self._reasons.pop(run_id, None)
        else:
            self._reasons[run_id] = reason


def _at(observation: ToolCall | ToolResult | ToolRefused) -> str | None:
    """The observation's time as the ledger reads it (``None``: it has none)."""
    return observation.at if isinstance(observation.at, str) else None
