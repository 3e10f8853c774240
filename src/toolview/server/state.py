"""What the routes share: the log, the sent tail, the redactor, the limits, the projections."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TypeAlias, cast

import anyio
from starlette.requests import Request

from toolview.contract import Observation
from toolview.safety import redact, redact_json
from toolview.server.ingest.budget import BodyBudget
from toolview.server.live.hubs import Hubs
from toolview.server.live.sent_tail import SentTail
from toolview.server.offload import WORKERS
from toolview.server.page.index.card_shelf import CardShelf
from toolview.server.page.index.directory import Directory
from toolview.server.page.index.shared import SharedListing
from toolview.server.page.pieces.cache import PIECE_CHARS, PieceCache
from toolview.server.page.projection import PROJECTION_LIMIT, Projections
from toolview.server.page.search.thread_text import TEXT_BUDGET, TextCache
from toolview.server.page.search.worker import SEARCHERS
from toolview.wire.feed import OpenCall
from toolview.wire.follow import Redactor
from toolview.wire.idempotency import Appended, Keyed, Outcome
from toolview.wire.log import ObservationLog, ThreadInfo

__all__ = [
    "BODY_BUDGET_SHARE",
    "BODY_LIMIT",
    "FOLLOW_LIMIT",
    "FOLLOW_TOTAL",
    "REDACTOR",
    "SEARCHES_PER_CLIENT",
    "SEARCHES_TOTAL",
    "ServerState",
    "SharedReads",
    "server_state",
]

BODY_LIMIT: Final = 16 * 1024 * 1024
BODY_BUDGET_SHARE: Final = 4  # bodies held at once, all requests together: 4 body limits
FOLLOW_LIMIT: Final = 512  # concurrent follow streams per client address
FOLLOW_TOTAL: Final = 768  # ... and from all addresses (a local user has all of 127/8)
SEARCHES_PER_CLIENT: Final = 4  # searches (either route) in flight per client address
SEARCHES_TOTAL: Final = 32  # ... and from all addresses
REDACTOR: Final = Redactor(text=redact, json=redact_json)


Records: TypeAlias = list[tuple[int, bytes]]
_ReadKey: TypeAlias = tuple[str, int, int | None, int]


class SharedReads:
    """The log, where identical reads in flight at the same time are made once.

    Why: one append wakes every follower of the thread at once, and each asks
    the log for the same records after the same seq; 500 followers made 500
    reads (each a thread hop for SQLite, a round trip for Redis). A read that
    joins one in flight gets records stored up to when that read ran — at
    worst short of the newest, which its next ``wait`` (past its position)
    then reads. Nothing is kept once a read completes: at most one result
    per distinct (thread, after, upto, limit) exists while being read, so
    memory stays what the followers themselves hold. A caller that is
    cancelled does not cancel the read for the others (``shield``).
    """

    def __init__(self, log: ObservationLog) -> None:
        self.log = log
        self._flights: dict[_ReadKey, asyncio.Task[Records]] = {}

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> Records:
        """``log.read``, shared with identical reads already in flight."""
        key = (thread_id, after, upto, limit)
        flight = self._flights.get(key)
        if flight is None:  # no await between the lookup and the insert
            flight = asyncio.ensure_future(self.log.read(thread_id, after, upto=upto, limit=limit))
            self._flights[key] = flight
            flight.add_done_callback(lambda done: self._land(key, done))
        return await asyncio.shield(flight)

    def _land(self, key: _ReadKey, flight: asyncio.Task[Records]) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if not flight.cancelled():
            flight.exception()  # retrieved: every waiter re-raises it, none may be left

    async def create_thread(self, thread_id: str) -> bool:
        """As the log."""
        return await self.log.create_thread(thread_id)

    async def threads(self) -> list[ThreadInfo]:
        """As the log."""
        return await self.log.threads()

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """As the log."""
        return await self.log.thread(thread_id)

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """As the log."""
        return await self.log.append(thread_id, observations)

    async def append_once(
        self, thread_id: str, observations: Sequence[Observation], key: str
    ) -> Appended:
        """As the log."""
        return await self.log.append_once(thread_id, observations, key)

    async def append_each(self, thread_id: str, batches: Sequence[Keyed]) -> list[Outcome]:
        """As the log."""
        return await self.log.append_each(thread_id, batches)

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """As the log."""
        return await self.log.open_calls(thread_id)

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """As the log."""
        return await self.log.wait(thread_id, after, timeout)

    async def aclose(self) -> None:
        """As the log."""
        await self.log.aclose()


@dataclass
class ServerState:
    """One per app: set up at start-up, read by every route."""

    log: ObservationLog
    body_limit: int = BODY_LIMIT
    keepalive: float = 15.0
    send_timeout: float = 30.0
    sent: SentTail = field(default_factory=SentTail)
    redactor: Redactor = REDACTOR
    follow_limit: int = FOLLOW_LIMIT
    follows: Counter[str] = field(default_factory=Counter)
    follow_total: int = FOLLOW_TOTAL
    workers: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(WORKERS))
    # a search waits for a search process in a thread of its own, never one of ingest's workers
    searchers: anyio.CapacityLimiter = field(
        default_factory=lambda: anyio.CapacityLimiter(SEARCHERS)
    )
    searching: Counter[str] = field(default_factory=Counter)  # searches in flight, by client
    search_limit: int = SEARCHES_PER_CLIENT
    search_total: int = SEARCHES_TOTAL
    projection_limit: int = PROJECTION_LIMIT
    pieces: PieceCache = field(default_factory=lambda: PieceCache(PIECE_CHARS))  # page markup
    texts: TextCache = field(default_factory=lambda: TextCache(TEXT_BUDGET))  # searched text
    watched: tuple[Path, ...] = ()  # serve --watch's folders: where a stored output may be read
    projections: Projections = field(init=False)
    reads: SharedReads = field(init=False)
    bodies: BodyBudget = field(init=False)
    hubs: Hubs = field(init=False)
    listing: SharedListing = field(init=False)  # the index's, shared

    def __post_init__(self) -> None:
        """The page's thread projections read this state's log; followers share reads and hubs."""
        self.projections = Projections(self.log, self.projection_limit, self.workers)
        self.reads = SharedReads(self.log)
        self.bodies = BodyBudget(BODY_BUDGET_SHARE * self.body_limit)
        self.hubs = Hubs(self.reads, self.redactor, self.keepalive)
        self.listing = SharedListing(Directory(self.reads, self.workers, CardShelf(self.log)))


def server_state(request: Request) -> ServerState:
    """The app's state, from a request."""
    return cast(ServerState, request.app.state.toolview)
