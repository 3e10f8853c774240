"""The index's cards kept in the log across restarts, so a cold first view reads no records.

Why: a fresh server made its 10,000 cards by reading every record of every
thread (a cold first view of 11–13 s). What is kept of a card is what its
listing says and nothing it could not say again: its facts
(``contract.session_facts``) and counts (``contract.counts``: costs and tools
included), with the seq and creation time they were made at. A card taken
back lists as the full read does: its title shown through the same
``title_line`` (cleaned and redacted again on read), its status decided now
from its facts. It cannot fold new records (the ledgers are not kept), so a
thread that grew past it is read again from its start: one fold decides a
card, never a second one.

A kept card is taken only when made by these rules (``stamp``: the sources
of the modules that decide a card — a new price table or status rule makes
every one stale) and its row decodes to exactly a card's shape within
``MAX_CARD`` bytes; any other is left, and its thread read. Only a log that
keeps cards (``Shelf``: the SQLite log, ``wire.log.sqlite_cards``) is asked.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import Iterable, Sequence
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Final, Protocol, runtime_checkable

import msgspec

from toolview.contract.counts import SessionCounts
from toolview.contract.session_facts import PROJECT_CHARS, SessionFacts
from toolview.contract.session_title import title_line
from toolview.wire.log.sqlite_cards import KeptCard

__all__ = ["MAX_CARD", "CardShelf", "Keepable", "Kept", "Shelf", "stamp"]

MAX_CARD: Final = 256 * 1024  # bytes: a card is a few hundred; more is not one of ours
_DECIDERS: Final = (  # the modules whose rules make a card's facts and counts
    "toolview.server.page.index.card_calls",
    "toolview.server.page.index.card_shelf",
    "toolview.contract.call_state",
    "toolview.contract.counts",
    "toolview.contract.cost",
    "toolview.contract.ledger",
    "toolview.contract.model_usage",
    "toolview.contract.price_match",
    "toolview.contract.price_table",
    "toolview.contract.session_facts",
    "toolview.contract.session_title",
    "toolview.contract.tool_tally",
)


@runtime_checkable
class Shelf(Protocol):
    """A log that keeps the index's cards."""

    async def kept_cards(self) -> list[KeptCard]: ...  # pragma: no cover - a protocol

    async def keep_cards(self, cards: Sequence[KeptCard]) -> bool: ...  # pragma: no cover


class Keepable(Protocol):
    """A card as the shelf keeps it (``card.Card``)."""

    id: str
    created: float
    last_seq: int
    facts: SessionFacts

    def counts(self) -> SessionCounts: ...  # pragma: no cover - a protocol


class _Card(msgspec.Struct, frozen=True):
    stamp: str
    facts: SessionFacts
    counts: SessionCounts


class Kept(msgspec.Struct, frozen=True):
    """A card taken back: its thread, creation, the seq it was made at, facts and counts."""

    id: str
    created: float
    seq: int
    facts: SessionFacts
    counts: SessionCounts


@cache
def stamp() -> str:
    """The stamp of the rules that make a card: a card kept under another is stale."""
    digest = hashlib.sha256(msgspec.json.encode(msgspec.json.schema(_Card)))
    for name in _DECIDERS:
        __import__(name)
        with suppress(OSError, TypeError):
            digest.update(Path(str(sys.modules[name].__file__)).read_bytes())
    return digest.hexdigest()[:16]


class CardShelf:
    """The cards a log kept (``restore``), and keeping the ones made since (``keep``)."""

    def __init__(self, log: object) -> None:
        self.log = log if isinstance(log, Shelf) else None
        self._kept: dict[str, tuple[float, int]] = {}  # thread -> (created, seq) as kept
        self._lock = asyncio.Lock()

    async def restore(self) -> list[Kept]:
        """Every well-formed card of these rules the log kept (none from a log that keeps none)."""
        if self.log is None:
            return []
        decoder, mine, taken = msgspec.json.Decoder(_Card), stamp(), []
        for thread, created, seq, raw in await self.log.kept_cards():
            if len(raw) > MAX_CARD:
                continue
            try:
                card = decoder.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue
            if card.stamp == mine and seq >= 0:
                facts = card.facts  # its words cleaned and redacted again, as the fold did
                facts.project = title_line(facts.project, PROJECT_CHARS)
                facts.machine = title_line(facts.machine, PROJECT_CHARS)
                facts.user = title_line(facts.user, PROJECT_CHARS)
                taken.append(Kept(thread, created, seq, facts, card.counts))
                self._kept[thread] = (created, seq)
        return taken

    async def keep(self, cards: Iterable[Keepable]) -> None:
        """Keep each card not kept at its seq yet (one transaction for all of them)."""
        if self.log is None:
            return
        async with self._lock:
            fresh = [
                c
                for c in cards
                if c.last_seq > 0 and self._kept.get(c.id) != (c.created, c.last_seq)
            ]
            if not fresh:
                return
            mine = stamp()
            rows = [
                (c.id, c.created, c.last_seq, msgspec.json.encode(_Card(mine, c.facts, c.counts())))
                for c in fresh
            ]
            if await self.log.keep_cards(rows):  # else kept at the next listing that can
                self._kept.update((c.id, (c.created, c.last_seq)) for c in fresh)
