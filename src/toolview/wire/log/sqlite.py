"""The embedded log: one SQLite file, WAL mode, durable before acknowledged.

Every read is by ``(thread, seq)`` on the primary key, never a full scan.
sqlite3 is blocking, so each call runs in a worker thread. An append indexes
its records for the search before it answers, after its commit and outside
the writer (``sqlite_search``). Writes share one
connection under one lock; reads have their own connection and lock, so a
16 MiB append (seconds) does not hold up ``GET /api/threads``: in WAL mode a
reader sees the last commit while a writer works. The search index's catch-up
and the searches read on connections of their own too (``sqlite_search``,
``sqlite_readers``): a search a reader makes expensive never holds the
lock the other reads take. A waiter is woken by this
process's appends at once and polls for appends made by other processes
sharing the file.

The file's place and modes are ``sqlite_file``; the tables and the append
transaction ``sqlite_append``; the idempotency keys' SQL ``sqlite_keys``;
the read positions' (``wire.sources``) ``sqlite_sources``; the index
``sqlite_fts`` and a search of it ``sqlite_query``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final, TypeVar

from toolview.contract import Observation
from toolview.wire.feed import OpenCall, decode_open_call
from toolview.wire.idempotency import KEEP_KEYS, Appended, Keyed, Outcome
from toolview.wire.log import SearchResult, ThreadInfo
from toolview.wire.log.sqlite_append import RECORDS_SCHEMA, append_batch, append_each
from toolview.wire.log.sqlite_cards import (
    CARDS_SCHEMA,
    KEPT_CARDS,
    KeptCard,
    keep_cards,
    well_typed,
)
from toolview.wire.log.sqlite_file import prepare_private
from toolview.wire.log.sqlite_fts import SEARCH_SCHEMA, Pending, store_rows
from toolview.wire.log.sqlite_keys import KEYS_SCHEMA
from toolview.wire.log.sqlite_query import SEARCH_SECONDS, fts_terms
from toolview.wire.log.sqlite_readers import SearchReaders
from toolview.wire.log.sqlite_search import SearchIndexer
from toolview.wire.log.sqlite_sources import SOURCES_SCHEMA
from toolview.wire.seq_watch import Watch
from toolview.wire.sources import SourceMove

__all__ = ["SQLiteLog"]

T = TypeVar("T")

_POLL: Final = 0.25  # seconds between checks for appends by other processes
_RECORDS: Final = (
    "SELECT seq, body FROM records WHERE thread = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
)


class SQLiteLog:
    """The ``ObservationLog`` on one SQLite file."""

    def __init__(self, path: Path | str, *, keep_keys: int = KEEP_KEYS) -> None:
        self.path = Path(path)
        self.keep_keys = keep_keys  # idempotency keys remembered per thread
        prepare_private(self.path)
        self._db = self._connect()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(
            RECORDS_SCHEMA + KEYS_SCHEMA + SOURCES_SCHEMA + SEARCH_SCHEMA + CARDS_SCHEMA
        )
        self._reader = self._connect()  # opened after the schema: reads only, never waits
        self._lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._watches: dict[str, Watch] = {}
        self._indexing = self._connect()  # the index's catch-up reads here: never under _read_lock
        self._index_lock = threading.Lock()
        self._indexer = SearchIndexer(self._index_records, self._index_query, self._store_rows)
        self._searchers = SearchReaders(self._connect)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)

    async def _run(self, fn: Callable[[], T]) -> T:
        """``fn`` (which writes with ``_db``) in a worker thread, one writer at a time."""
        return await asyncio.to_thread(_locked, self._lock, fn)

    async def _query(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        """Every row of one ``SELECT`` on the read connection, in a worker thread."""
        return await asyncio.to_thread(
            _locked, self._read_lock, lambda: self._reader.execute(sql, args).fetchall()
        )

    async def _index_query(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        """``_query`` on the index's own connection (see ``sqlite_search``)."""
        return await asyncio.to_thread(
            _locked, self._index_lock, lambda: self._indexing.execute(sql, args).fetchall()
        )

    async def create_thread(self, thread_id: str) -> bool:
        """Create the thread; ``False`` if it already existed."""
        sql = "INSERT OR IGNORE INTO threads (id, created) VALUES (?, ?)"
        return await self._run(
            lambda: self._db.execute(sql, (thread_id, time.time())).rowcount == 1
        )

    async def threads(self) -> list[ThreadInfo]:
        """Every thread, oldest first."""
        sql = "SELECT id, created, last_seq FROM threads ORDER BY created, id"
        return [ThreadInfo(*row) for row in await self._query(sql)]

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """One thread, or ``None``."""
        sql = "SELECT id, created, last_seq FROM threads WHERE id = ?"
        rows = await self._query(sql, (thread_id,))
        return ThreadInfo(*rows[0]) if rows else None

    async def kept_cards(self) -> list[KeptCard]:
        """The index's cards as last kept (``sqlite_cards``)."""
        return well_typed(await self._query(KEPT_CARDS))

    async def keep_cards(self, cards: Sequence[KeptCard]) -> bool:
        """Keep the index's ``cards`` (``sqlite_cards``), each in place of its thread's last;
        whether they were (``False``: the file could not be written now)."""
        return await self._run(partial(keep_cards, self._db, cards))

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """Number and store in one transaction; returns once it is committed."""
        return (await self._append_async(thread_id, observations, None)).seqs

    async def append_once(
        self, thread_id: str, observations: Sequence[Observation], key: str
    ) -> Appended:
        """``append`` with the key written in the same transaction (see ``ObservationLog``)."""
        return await self._append_async(thread_id, observations, key)

    async def append_each(self, thread_id: str, batches: Sequence[Keyed]) -> list[Outcome]:
        """Several keyed batches in one transaction (see ``ObservationLog``)."""
        job = partial(append_each, self._db, thread_id, batches, self.keep_keys)
        outcomes = await self._run(job)
        await self._appended(thread_id, [o for o in outcomes if isinstance(o, Appended)])
        return outcomes

    async def append_from(
        self, thread_id: str, observations: Sequence[Observation], move: SourceMove
    ) -> list[int]:
        """``append`` and move a read position in one transaction (see ``wire.sources``)."""
        return (await self._append_async(thread_id, observations, None, move)).seqs

    async def position(self, source: str) -> bytes | None:
        """The stored read position of ``source``, or ``None``."""
        rows = await self._query("SELECT position FROM sources WHERE name = ?", (source,))
        return bytes(rows[0][0]) if rows else None

    async def _append_async(
        self,
        thread_id: str,
        observations: Sequence[Observation],
        key: str | None,
        move: SourceMove | None = None,
    ) -> Appended:
        job = partial(append_batch, self._db, thread_id, observations, key, self.keep_keys, move)
        appended = await self._run(job)
        await self._appended(thread_id, [appended])
        return appended

    async def _appended(self, thread_id: str, outcomes: list[Appended]) -> None:
        """Wake the thread's waiters, then index it (``sqlite_search``), if anything was stored."""
        stored = [seq for o in outcomes if not o.replayed for seq in o.seqs]
        if stored:
            self._notify(thread_id, max(stored))
            await self._indexer.index(thread_id)

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """Records with ``after < seq ≤ upto`` by primary key, at most ``limit``."""
        bound = upto if upto is not None else 2**62
        args = (thread_id, after, bound, limit)
        return [(seq, bytes(body)) for seq, body in await self._query(_RECORDS, args)]

    async def _index_records(
        self, thread_id: str, after: int, *, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """``read``, for the search index's catch-up, on its own connection."""
        rows = await self._index_query(_RECORDS, (thread_id, after, 2**62, limit))
        return [(seq, bytes(body)) for seq, body in rows]

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """Calls with partial output and no final result yet."""
        sql = "SELECT call_id, state FROM open_calls WHERE thread = ?"
        rows = await self._query(sql, (thread_id,))
        return {call_id: decode_open_call(state) for call_id, state in rows}

    async def search(self, query: str, limit: int, seconds: float = SEARCH_SECONDS) -> SearchResult:
        """The best ``limit`` matches of ``query``'s words in every thread (FTS5, ranked).

        Every record appended before it is indexed first (``sqlite_search``),
        for at most half of ``seconds``; the search itself has what is left
        (``sqlite_query``). Either running out answers ``stopped: "time"``.
        """
        deadline = time.monotonic() + seconds
        terms = fts_terms(query)
        if not terms.words:
            return SearchResult([], [], terms.dropped)
        caught_up = await self._indexer.caught_up(seconds / 2)
        hits, late = await self._searchers.search(terms, limit, deadline)
        stopped = "time" if late or not caught_up else None
        return SearchResult(hits, terms.words, terms.dropped, stopped)

    async def _store_rows(self, thread_id: str, done: int, upto: int, pending: Pending) -> bool:
        return await self._run(partial(store_rows, self._db, thread_id, done, upto, pending))

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """Until the thread has a seq past ``after``, or ``timeout`` seconds.

        One watcher per thread serves every waiter: woken at once by this
        process's appends, it polls for other processes' appends — only while
        someone waits, so a thousand threads followed once cost nothing after.
        """
        watch = self._watches.get(thread_id)
        if watch is None:
            info = await self.thread(thread_id)
            watch = self._watches.setdefault(thread_id, Watch(info.last_seq if info else 0))
        if watch.task is None or watch.task.done():
            watch.task = asyncio.create_task(self._poll(thread_id, watch))
        return await watch.wait_past(after, timeout)

    async def _poll(self, thread_id: str, watch: Watch) -> None:
        while True:
            await asyncio.sleep(_POLL)
            if watch.waiters == 0:  # nobody left: stop, and forget the thread
                if self._watches.get(thread_id) is watch:
                    del self._watches[thread_id]
                return
            info = await self.thread(thread_id)
            if info is not None:
                watch.advance(info.last_seq)

    def _notify(self, thread_id: str, last: int) -> None:
        watch = self._watches.get(thread_id)
        if watch is not None:
            watch.advance(last)

    async def aclose(self) -> None:
        """Stop the watchers and the indexer, and close the file."""
        await self._indexer.stop()
        for watch in self._watches.values():
            if watch.task is not None:
                watch.task.cancel()
        await self._run(self._db.close)
        await asyncio.to_thread(_locked, self._read_lock, self._reader.close)
        await asyncio.to_thread(_locked, self._index_lock, self._indexing.close)
        await asyncio.to_thread(self._searchers.close)


def _locked(lock: threading.Lock, fn: Callable[[], T]) -> T:
    with lock:
        return fn()
