"""An index card's calls: peeked records fed to the call ledger, placed as ``Thread`` places them.

Why: the index reads records without decoding them whole (``server.page.index.directory``),
yet must say what the page says of every call. So it decides nothing itself:
each record's call or run event goes to a ``contract.ledger.Ledger``, the
fold ``Thread`` reads, and the counts are the ledger's. What it adds is only
where a record goes: the thread's own calls, or a sub-agent's (placed as
``Thread`` nests them, one ledger per sub-agent as ``Thread`` keeps one per
child thread); a run that reaches the calls outside any run reaches its
sub-agents' too, as ``Thread`` carries it to its children. The ledgers are
read as ``contract.counts`` reads a thread's: the counts every view says.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field

import msgspec

from toolview.contract.call_state import CallEvent, IllegalTransition
from toolview.contract.counts import SessionCounts, ledger_counts
from toolview.contract.ledger import Ledger
from toolview.contract.model_usage import ModelTally
from toolview.contract.moments import TimeSpan
from toolview.contract.observations import RunOutcome
from toolview.contract.tool_tally import UNNAMED

__all__ = ["CardCalls", "Peek"]


class Peek(msgspec.Struct, rename="camel"):
    """What the index reads of a record: its kind, ids, flags and time."""

    kind: str = ""
    tool_call_id: str | None = None
    tool_name: str = ""
    parent_call_id: str | None = None
    run_id: str | None = None
    outcome: RunOutcome = "completed"
    role: str | None = None
    is_error: bool = False
    complete: bool = True
    at: str | None = None
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None  # the dollars the agent said (``Usage.cost_usd``)
    cwd: str | None = None  # a run-started's session facts (``RunStarted``)
    branch: str | None = None
    title: str | None = None
    machine: str | None = None  # where a synced session ran (``toolview sync``)
    user: str | None = None


@dataclass
class _Sub:
    """One sub-agent's calls: its ledger, whose calls hold its call, and its own sub-agents."""

    parent: str | None  # the sub-agent whose calls hold the call that ran it (None: the thread)
    ledger: Ledger = field(default_factory=Ledger)
    kids: list[str] = field(default_factory=list)
    tally: ModelTally = field(default_factory=ModelTally)


@dataclass
class CardCalls:
    """The thread's own calls in a ledger, and one ledger per sub-agent (as ``Thread`` keeps)."""

    ledger: Ledger = field(default_factory=Ledger)
    # per call that ran a sub-agent (at any depth): that sub-agent's calls
    subs: dict[str, _Sub] = field(default_factory=dict)
    # a sub-agent's call id -> the sub-agent holding it: its later records go there
    below: dict[str, str] = field(default_factory=dict)
    kids: list[str] = field(default_factory=list)  # the thread's own sub-agents
    tally: ModelTally = field(default_factory=ModelTally)  # its turns, per model and priced
    span: TimeSpan = field(default_factory=TimeSpan)
    # the counts as last read, until a record is seen: a listing and /stats read every card
    _read: SessionCounts | None = field(default=None, repr=False)

    def counts(self) -> SessionCounts:
        """The thread's counts, its sub-agents' included (``contract.counts``)."""
        if self._read is None:
            self._read = self._counts()
        return self._read

    def _counts(self) -> SessionCounts:
        counts = ledger_counts(self.ledger, self.tally.models())
        for sub in self.subs.values():
            counts = counts.with_sub(ledger_counts(sub.ledger, sub.tally.models()))
        return msgspec.structs.replace(counts, span_ms=self.span.ms)

    def see(self, peek: Peek) -> bool:
        """Apply a record's call or run event to its ledger; whether it was the thread's own."""
        self._read = None
        self.span.see(peek.at)
        where = self._place(peek)
        ledger = self.ledger if where is None else self.subs[where].ledger
        if peek.kind == "usage":
            tally = self.tally if where is None else self.subs[where].tally
            tally.add(
                peek.model,
                (
                    peek.input_tokens,
                    peek.output_tokens,
                    peek.cache_read_tokens,
                    peek.cache_write_tokens,
                ),
                peek.cost_usd,
            )
        _call_event(ledger, peek)
        call_id, run_id = peek.tool_call_id, peek.run_id
        if where is not None and call_id is not None and call_id in ledger:
            self.below.setdefault(call_id, where)
        if peek.kind == "run-started" and run_id is not None:
            ledger.run_started(run_id)
            self._outer(where, "run-started", None)
        elif (
            peek.kind == "run-ended"
            and run_id is not None
            and ledger.run_ended(run_id, peek.outcome)
        ):
            self._outer(where, "run-ended", peek.outcome)
        return where is None

    def _place(self, peek: Peek) -> str | None:
        """The sub-agent ``peek`` belongs to (``None``: the thread), placed as ``Thread`` does.

        A call's own records go where the call is; otherwise its mark decides,
        and a mark naming no call seen is a (placeholder) call of the thread.
        """
        call_id, mark = peek.tool_call_id, peek.parent_call_id
        if call_id is not None and call_id in self.ledger:
            return None
        if call_id is not None and call_id in self.below:
            return self.below[call_id]
        if mark is None or mark == call_id:
            return None
        holder = self.below.get(mark)
        if holder is None and mark not in self.ledger:
            self.ledger.open(mark)
        if mark not in self.subs:
            self.subs[mark] = _Sub(holder)
            (self.kids if holder is None else self.subs[holder].kids).append(mark)
        return mark

    def _outer(self, where: str | None, event: CallEvent, outcome: RunOutcome | None) -> None:
        """A run's start or end reaches the sub-agents below ``where`` with no run of their own."""
        for kid in self.kids if where is None else self.subs[where].kids:
            sub = self.subs[kid]
            if sub.ledger.current_run is None:
                sub.ledger.outer(event, outcome)
                self._outer(kid, event, outcome)


def _call_event(ledger: Ledger, peek: Peek) -> None:
    """A call's record (call, result, refusal, a person asked or deciding) applied to ``ledger``.

    As ``Thread`` folds them: an ask or decision the table refuses changes nothing.
    """
    kind, call_id = peek.kind, peek.tool_call_id
    if call_id is None:
        return
    if kind == "tool-call":
        ledger.named(call_id, peek.tool_name or UNNAMED, peek.at)
    elif kind in ("tool-result", "tool-refused", "tool-waiting"):
        with suppress(IllegalTransition):  # a second final result: the first stands
            event = "asked" if kind == "tool-waiting" else _event(peek)
            ledger.result(call_id, event, peek.at)
    elif kind == "tool-decision" and call_id in ledger:
        with suppress(IllegalTransition):  # a decision applies once, to a call that waits
            ledger.decide(call_id)


def _event(peek: Peek) -> CallEvent:
    """The table's event for a peeked result (``call_state.result_event``, without decoding)."""
    if peek.kind == "tool-refused":
        return "refused"
    if not peek.complete:
        return "partial"
    return "result-error" if peek.is_error else "result-ok"
