"""The index's view of every thread: title, times, calls, running and failed, kept as it grows.

Why here and not per request: the index lists every thread, and counting a
thread's calls by replaying it (a projection, ``server.page.projection``) per
request is O(all observations). Each thread keeps a small ``Card`` and the seq
it was read to: a request reads only records no request read before (none,
for a thread that did not grow: ``log.threads()`` says each one's last seq),
so a listing is O(threads) plus what is new — the same on both logs. The
cards are kept in the log (``card_shelf``): a restarted server takes them
back instead of reading every record (a table or hash of its own, whose
rows are only a head start: one of other rules or shape is read again).
A record is peeked at (kind, ids, flags, time), never decoded whole; a
message's text only while the thread has no title.

What it counts is ``contract.counts.SessionCounts``: the thread's own calls
(``calls`` seen, ``running``, ``failed``: error results) and its sub-agents'
(marked ``parentCallId``: ``subAgentCalls``, ``subAgentFailed``), with
``counts`` the words every view says, read from ``contract.ledger.Ledger``s
fed the peeked records (``server.page.index.card_calls``), so the index says what
``Thread`` (the page, ``show``, ``sessions``) says: it decides nothing about
a call itself. The title, the agent and the live status are
``contract.session_facts``' (the one home ``sessions`` and the page header
read too): the card feeds it the thread's own records, a message's text
decoded only while the thread has no title.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Final

import anyio
import msgspec

from toolview.contract.counts import SessionCounts, cost_fields, counts_text
from toolview.contract.session_facts import SessionFacts, agent_of
from toolview.server.offload import in_worker
from toolview.server.page.index.card_calls import CardCalls, Peek
from toolview.server.page.index.card_shelf import CardShelf
from toolview.wire.log import ObservationLog, ThreadInfo

__all__ = ["Card", "Directory"]

_BATCH: Final = 2000


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


class Directory:
    """Every thread's card, brought up to date per listing (see the module).

    ``version`` counts the changes to any card (one grew, came or went): the
    listing is made again only when it moved, or when a status would change
    with time alone (``SessionFacts.status_until``) — not for every request
    (at 10,000 threads, 0.27 s of CPU each).
    """

    def __init__(
        self, log: ObservationLog, workers: anyio.CapacityLimiter, shelf: CardShelf | None = None
    ) -> None:
        self.log = log
        self.workers = workers
        self.shelf = shelf or CardShelf(None)
        self.version = 0
        self._cards: dict[str, Card] = {}
        self._restoring = asyncio.Lock()
        self._restored = False
        self._listed: tuple[int, float, list[dict[str, object]]] = (-1, 0.0, [])

    async def listing(self) -> list[dict[str, object]]:
        """Every thread, newest activity first: the same list while no card changed."""
        cards = await self.cards()
        version, now = self.version, time.time()
        made, until, listed = self._listed
        if made == version and now < until:
            return listed
        listed = [card.as_json(now) for card in cards]
        listed.sort(key=lambda c: (str(c["lastActivity"]), str(c["id"])), reverse=True)
        until = min((card.until(now) for card in cards), default=float("inf"))
        self._listed = (version, until, listed)
        return listed

    async def cards(self) -> list[Card]:
        """Every thread's card, brought up to date (the listing's, and the stats page's)."""
        await self._restore()
        infos = await self.log.threads()
        live = {info.id for info in infos}
        for gone in set(self._cards) - live:
            del self._cards[gone]
            self.version += 1
        cards = [await self._current(info) for info in infos]
        await self.shelf.keep(cards)
        return cards

    async def _restore(self) -> None:
        """Take back the cards the log kept (``card_shelf``), once, before any listing."""
        async with self._restoring:
            if self._restored:
                return
            for kept in await self.shelf.restore():
                self._cards[kept.id] = Card(
                    kept.id, kept.created, kept.seq, kept.facts, kept.created, counted=kept.counts
                )
            self._restored = True

    async def card(self, thread_id: str) -> dict[str, object] | None:
        """One thread's listing, brought up to date (the page header reads it: same facts)."""
        info = await self.log.thread(thread_id)
        return None if info is None else (await self._current(info)).as_json()

    async def _current(self, info: ThreadInfo) -> Card:
        card = self._cards.get(info.id)
        if (
            card is None
            or card.created != info.created
            or card.last_seq > info.last_seq
            or (card.counted is not None and card.last_seq < info.last_seq)  # kept: read again
        ):
            card = self._cards[info.id] = Card(info.id, info.created)
            self.version += 1
        async with card.lock:
            while card.last_seq < info.last_seq:
                records = await self.log.read(info.id, card.last_seq, limit=_BATCH)
                if not records:
                    break
                await in_worker(self.workers, partial(card.fold, records))
                self.version += 1
        return card


def _iso(seconds: float) -> str:
    """A log's creation time (seconds since the epoch) as the contract writes times."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
