"""The index's view of every thread: title, times, calls, running and failed, kept as it grows.

Why here and not per request: the index lists every thread, and counting a
thread's calls by replaying it (a projection, ``server.page.projection``) per
request is O(all observations). Each thread keeps a small ``Card`` (``card``) and the seq
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
from functools import partial
from typing import Final

import anyio

from toolview.server.offload import in_worker
from toolview.server.page.index.card import Card
from toolview.server.page.index.card_shelf import CardShelf
from toolview.wire.log import ObservationLog, ThreadInfo

__all__ = ["Directory"]

_BATCH: Final = 2000


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
