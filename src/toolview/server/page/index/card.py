"""One thread as the index shows it: its facts and counts, folded from the records it read.

Why apart from ``directory``: the card is what a listing, the stats page and
the page header read of one thread (its fields, its status as of a time);
``directory`` keeps every card up to date against the log. A card reads
records by peeking (``card_calls.Peek``), a message's text decoded only while
the thread has no title; what it says is ``contract.session_facts``' and
``contract.counts``' (the one home every view reads), never its own.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

import msgspec

from toolview.contract.counts import SessionCounts, cost_fields, counts_text
from toolview.contract.session_facts import SessionFacts, agent_of
from toolview.server.page.index.card_calls import CardCalls, Peek

__all__ = ["Card"]


class _Text(msgspec.Struct):
    text: str = ""


@dataclass
class Card:
    """One thread as the index shows it."""

    id: str
    created: float
    last_seq: int = 0
    facts: SessionFacts = field(default_factory=SessionFacts)
    grew: float | None = None  # when the card last saw the thread grow (its creation at first)
    calls: CardCalls = field(default_factory=CardCalls, repr=False)
    counted: SessionCounts | None = None  # a kept card's counts (``card_shelf``): no ledgers
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # what a listing re-made only when the thread grew (redacting a title, summing ledgers):
    # a warm listing of 10,000 threads spent most of its 0.5 s CPU on them
    _made: tuple[int, SessionCounts, str] | None = field(default=None, repr=False)

    def _grown(self) -> tuple[SessionCounts, str]:
        if self._made is None or self._made[0] != self.last_seq:
            title = self.facts.shown_title or self.id
            counts = self.calls.counts() if self.counted is None else self.counted
            self._made = (self.last_seq, counts, title)
        return self._made[1], self._made[2]

    def counts(self) -> SessionCounts:
        """The thread's counts (``contract.counts``), its sub-agents' included."""
        return self._grown()[0]

    def as_json(self, now: float | None = None) -> dict[str, object]:
        """The listing's fields (``id``, ``created``, ``lastSeq`` as before, then the index's),
        its status as of ``now`` (epoch seconds; the clock's by default)."""
        created = _iso(self.created)
        counts, title = self._grown()
        facts = self.facts
        return {
            "id": self.id,
            "created": self.created,
            "lastSeq": self.last_seq,
            "title": title,
            "agent": agent_of(self.id),
            "project": facts.project,
            "branch": facts.branch,
            "machine": facts.machine,
            "user": facts.user,
            "status": facts.status(
                counts.running, now or time.time(), self.grew, waiting_calls=counts.waiting
            ),
            "startedAt": facts.start or created,
            "lastActivity": facts.last or facts.start or created,
            "calls": counts.calls,
            "running": counts.running,
            "failed": counts.failed,
            "subAgentCalls": counts.sub_calls,
            "subAgentFailed": counts.sub_failed,
            "subAgentRunning": counts.sub_running,
            "tokens": counts.tokens,
            "subAgentTokens": counts.sub_tokens,
            "spanMs": counts.span_ms,
            "counts": counts_text(counts),
            **cost_fields(counts),
        }

    def until(self, now: float) -> float:
        """When the status ``as_json(now)`` says may change with time alone."""
        counts = self._grown()[0]
        return self.facts.status_until(counts.running, now, self.grew, waiting_calls=counts.waiting)

    def fold(self, records: list[tuple[int, bytes]]) -> None:
        """Account for ``records`` (read after ``last_seq``), in a worker."""
        self.grew = time.time() if self.last_seq else self.created
        for seq, raw in records:
            self._see(msgspec.json.decode(raw, type=Peek), raw)
            self.last_seq = seq

    def _see(self, peek: Peek, raw: bytes) -> None:
        if not self.calls.see(peek):
            self.facts.see("", at=peek.at)  # a sub-agent's: its time only, its calls counted
            return
        if peek.kind == "run-started":
            self.facts.session(peek.cwd, peek.title, peek.branch, (peek.machine, peek.user))
        self.facts.see(
            peek.kind,
            role=peek.role,
            at=peek.at,
            outcome=peek.outcome,
            text=lambda: msgspec.json.decode(raw, type=_Text).text,
        )


def _iso(seconds: float) -> str:
    """A log's creation time (seconds since the epoch) as the contract writes times."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
