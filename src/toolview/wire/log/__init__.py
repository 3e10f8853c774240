"""The observation log: one small interface, two backends, one replay helper.

A backend numbers and stores (``append``, or ``append_once`` under an
idempotency key, ``append_each`` several keyed batches at once, see
``wire.idempotency``), reads a range (``read``), waits for
more (``wait``) and knows each thread's open calls (``open_calls``).
``Replay`` reads a thread back as observations from any seq, rebuilding the
text of calls that were already running there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import msgspec

from toolview.contract import Observation
from toolview.wire.feed import LogItem, OpenCall, PartialRecord, Reconstructor
from toolview.wire.idempotency import Appended, Keyed, Outcome

__all__ = [
    "BuildsSearch",
    "ObservationLog",
    "Replay",
    "SearchHit",
    "SearchResult",
    "SearchUnsupported",
    "SearchableLog",
    "ThreadInfo",
    "UnknownThread",
]


class UnknownThread(LookupError):
    """The thread does not exist in this log."""


class ThreadInfo(msgspec.Struct, frozen=True, rename="camel"):
    """A thread as listed: its id, when it was created, how many observations it has."""

    id: str
    created: float
    last_seq: int


class ObservationLog(Protocol):
    """What the server and the benchmarks need of a log backend."""

    async def create_thread(self, thread_id: str) -> bool:
        """Create the thread; ``False`` if it already existed."""
        ...

    async def threads(self) -> list[ThreadInfo]:
        """Every thread, oldest first."""
        ...

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """One thread, or ``None``."""
        ...

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """Number and store, atomically; returns the seqs once durable."""
        ...

    async def append_once(
        self, thread_id: str, observations: Sequence[Observation], key: str
    ) -> Appended:
        """``append`` under an idempotency key, stored in the same atomic write.

        A key this thread already has returns the original seqs (``replayed``)
        and stores nothing; the same key with a different batch raises
        ``KeyConflict`` and stores nothing.
        """
        ...

    async def append_each(self, thread_id: str, batches: Sequence[Keyed]) -> list[Outcome]:
        """Several ``append_once`` batches in one atomic write, each under its own key.

        One outcome per batch, in order: its seqs (``replayed`` if its key was
        known: nothing stored for it) or its ``KeyConflict`` (nothing stored
        for it, the others still are). A retried call stores nothing again.
        """
        ...

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """Stored records with ``after < seq ≤ upto``, in order, at most ``limit``."""
        ...

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """Calls with partial output and no final result yet."""
        ...

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """Until a seq greater than ``after`` exists (``True``) or ``timeout`` passes."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


class SearchHit(msgspec.Struct, frozen=True):
    """A match: the thread, the call (raw id, or ``None`` for a message), a snippet.

    ``start``/``end``: the first highlighted term in ``snippet`` (code points).
    """

    thread_id: str
    call_id: str | None
    field: str
    seq: int
    snippet: str
    start: int
    end: int


class SearchUnsupported(Exception):
    """This log can search, but not as it was opened (the reason is the message)."""


class SearchResult(msgspec.Struct, frozen=True):
    """A search's answer: its hits, the words searched, and what bounded it.

    ``words``: the distinct words searched; ``dropped``: distinct words past
    the cap, not searched. ``stopped`` is ``"time"`` when the deadline came
    first: the hits are then the best of what was looked at. ``index``: what
    was searched (``"fts5"``: the SQLite log's; ``"process"``: the word index
    a server process keeps from the Redis streams, ``redis_search``).
    """

    hits: list[SearchHit]
    words: list[str]
    dropped: int = 0
    stopped: str | None = None
    index: str = "fts5"


@runtime_checkable
class SearchableLog(Protocol):
    """A log that searches every thread's redacted text.

    The SQLite log with FTS5; the Redis log with an index each process keeps.
    """

    async def search(self, query: str, limit: int, seconds: float) -> SearchResult:
        """The best ``limit`` matches of ``query``'s words, ranked, found within ``seconds``."""
        ...


@runtime_checkable
class BuildsSearch(Protocol):
    """A log whose search index is built by each server process (Redis: ``redis_search``)."""

    def start_search(self) -> None:
        """Begin building the index in the background (the server calls it at start)."""
        ...


class Replay:
    """Reads one thread forward from a seq as ``LogItem``s, across batches."""

    def __init__(self, log: ObservationLog, thread_id: str, after: int) -> None:
        self.log = log
        self.thread_id = thread_id
        self.position = after
        self.reconstructor = Reconstructor()

    async def running_at_start(self) -> dict[str, OpenCall]:
        """Calls running at the start seq whose text there is known (to send as a reset).

        A call with records after the start is rebuilt when its first one is read.
        """
        running: dict[str, OpenCall] = {}
        for call_id, call in (await self.log.open_calls(self.thread_id)).items():
            if call.last_seq <= self.position:
                running[call_id] = call
                self.reconstructor.remember(call_id, call)
        return running

    async def next_batch(self, limit: int = 512) -> list[LogItem]:
        """The next records after the current position, decoded (may be empty)."""
        records = await self.log.read(self.thread_id, self.position, limit=limit)
        items: list[LogItem] = []
        for seq, raw in records:
            anchor = self.reconstructor.needs(raw)
            if anchor is not None:
                await self._prime(raw, anchor, seq)
            items.append(self.reconstructor.decode(seq, raw))
            self.position = seq
        return items

    async def _prime(self, raw: bytes, anchor: int, seq: int) -> None:
        record = msgspec.json.decode(raw, type=PartialRecord)
        history = await self.log.read(self.thread_id, anchor - 1, upto=seq - 1, limit=seq)
        self.reconstructor.prime(record.tool_call_id, history)
