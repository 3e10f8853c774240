"""An index card's calls: peeked records fed to the call ledger, placed as ``Thread`` places them.

Why: the index reads records without decoding them whole (``server.directory``),
yet must say what the page says of every call. So it decides nothing itself:
each record's call or run event goes to a ``contract.ledger.Ledger``, the
fold ``Thread`` reads, and the counts are the ledger's. What it adds is only
where a record goes: the thread's own calls, or a sub-agent's (placed as
``Thread`` nests them). The sub-agents' calls, at every depth, share a second
ledger (``sub``); a run of the thread that reaches the calls outside any run
reaches theirs too, as ``Thread`` carries it to its children. Both are read
as ``contract.counts`` reads a thread's ledgers: the counts every view says.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field

import msgspec

from toolview.contract.call_state import CallEvent, IllegalTransition
from toolview.contract.counts import SessionCounts, ledger_counts
from toolview.contract.ledger import Ledger
from toolview.contract.observations import RunOutcome

__all__ = ["CardCalls", "Peek"]


class Peek(msgspec.Struct, rename="camel"):
    """What the index reads of a record: its kind, ids, flags and time."""

    kind: str = ""
    tool_call_id: str | None = None
    parent_call_id: str | None = None
    run_id: str | None = None
    outcome: RunOutcome = "completed"
    role: str | None = None
    is_error: bool = False
    complete: bool = True
    at: str | None = None


@dataclass
class CardCalls:
    """The thread's own calls in a ledger, its sub-agents' calls in another."""

    ledger: Ledger = field(default_factory=Ledger)
    # sub-agents' call ids: their own later records go where they are, not here
    below: set[str] = field(default_factory=set)
    sub: Ledger = field(default_factory=Ledger)

    def counts(self) -> SessionCounts:
        """The thread's counts, its sub-agents' included (``contract.counts``)."""
        return ledger_counts(self.ledger).with_sub(ledger_counts(self.sub))

    def see(self, peek: Peek) -> bool:
        """Apply a record's call or run event to its ledger; whether it was the thread's own."""
        if self._below(peek):
            _call_event(self.sub, peek)
            return False
        _call_event(self.ledger, peek)
        if peek.kind == "run-started" and peek.run_id is not None:
            self.ledger.run_started(peek.run_id)
            self.sub.outer("run-started", None)
        elif (
            peek.kind == "run-ended"
            and peek.run_id is not None
            and self.ledger.run_ended(peek.run_id, peek.outcome)
        ):
            self.sub.outer("run-ended", peek.outcome)
        return True

    def _below(self, peek: Peek) -> bool:
        """Whether ``peek`` belongs to a sub-agent, placed as ``Thread`` places it.

        A call's own records go where the call is; otherwise its mark decides,
        and a mark naming no call seen is a (placeholder) call of the thread.
        """
        call_id, mark = peek.tool_call_id, peek.parent_call_id
        if call_id is not None and (call_id in self.ledger or call_id in self.below):
            return call_id in self.below
        if mark is None or mark == call_id:
            return False
        if mark not in self.ledger and mark not in self.below:
            self.ledger.open(mark)
        if call_id is not None:
            self.below.add(call_id)
        return True


def _call_event(ledger: Ledger, peek: Peek) -> None:
    """A call's record (its call, result or refusal) applied to ``ledger``."""
    kind, call_id = peek.kind, peek.tool_call_id
    if call_id is None:
        return
    if kind == "tool-call":
        ledger.open(call_id)
    elif kind in ("tool-result", "tool-refused"):
        with suppress(IllegalTransition):  # a second final result: the first stands
            ledger.result(call_id, _event(peek))


def _event(peek: Peek) -> CallEvent:
    """The table's event for a peeked result (``call_state.result_event``, without decoding)."""
    if peek.kind == "tool-refused":
        return "refused"
    if not peek.complete:
        return "partial"
    return "result-error" if peek.is_error else "result-ok"
