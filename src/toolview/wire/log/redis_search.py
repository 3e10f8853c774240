"""Search across threads on the Redis log: a word index this process keeps from the streams.

Why in the process: Redis 7 without its query engine module has no full-text
search, and a team server is exactly where the sessions of many machines are
searched. So each server process indexes what the streams hold
(``word_index``), the same rows the SQLite log's FTS5 gets (``pending_rows``:
redacted text only), in batches of ``BATCH`` records read with ``XRANGE``
and redacted in a worker thread, never on the event loop.

Kept current like ``sqlite_search``: an append through this process indexes
its thread before it answers; a search first catches every thread up (one
``ZRANGE`` and one ``MGET`` of the seq counters, then what lies past each
thread's progress), so a call appended through another process on the same
redis-server is found too. The first catch-up is the build (``start`` kicks it
off when the server starts); a search waits for it at most half its time
and answers ``stopped: "time"`` if it is not done, as the SQLite path does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Final

from toolview.wire.feed import OpenCall
from toolview.wire.log import SearchHit
from toolview.wire.log.sqlite_fts import pending_rows
from toolview.wire.log.sqlite_query import Terms
from toolview.wire.log.sqlite_search import retrieved
from toolview.wire.log.word_index import MAX_BYTES, WordIndex

__all__ = ["BATCH", "INDEX_KIND", "RedisSearch"]

BATCH: Final = 128  # records read and redacted at a time
INDEX_KIND: Final = "process"  # what /api/search says it searched: this process's index

Reader = Callable[..., Awaitable[list[tuple[int, bytes]]]]
OpenCalls = Callable[[str], Awaitable[dict[str, OpenCall]]]
Seqs = Callable[[], Awaitable[dict[str, int]]]


class RedisSearch:
    """The word index of one process, and each thread's progress into it."""

    def __init__(
        self, read: Reader, open_calls: OpenCalls, seqs: Seqs, max_bytes: int = MAX_BYTES
    ) -> None:
        self._read, self._open_calls, self._seqs = read, open_calls, seqs
        self.index = WordIndex(max_bytes)
        self._done: dict[str, int] = {}  # thread → last seq indexed
        self._marks: dict[tuple[str, str], int] = {}  # (thread, aborted call) → seq indexed
        self._lock = asyncio.Lock()  # one catch-up at a time: nothing indexed twice
        self._everything: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin building the index (a catch-up of every thread) in the background."""
        if self._everything is None or self._everything.done():
            self._everything = asyncio.create_task(self._all())
            self._everything.add_done_callback(retrieved)  # retried by the next search

    async def caught_up(self, seconds: float) -> bool:
        """Index every record stored so far; False if that took more than ``seconds``."""
        self.start()
        assert self._everything is not None
        done, _ = await asyncio.wait({self._everything}, timeout=max(seconds, 0.0))
        if not done:
            return False
        self._everything.result()
        return True

    async def thread(self, thread_id: str, upto: int) -> None:
        """Index ``thread_id`` up to ``upto`` (an append awaits it); failures: next search."""
        try:
            async with self._lock:
                await self._catch_up(thread_id, upto)
        except Exception:  # retried by the next search's catch-up
            return

    async def search(
        self, terms: Terms, limit: int, deadline: float
    ) -> tuple[list[SearchHit], bool]:
        """``WordIndex.search`` in a worker thread: never on the event loop."""
        return await asyncio.to_thread(self.index.search, terms, limit, deadline)

    async def _all(self) -> None:
        seqs = await self._seqs()
        async with self._lock:
            for thread_id, last in seqs.items():
                await self._catch_up(thread_id, last)

    async def _catch_up(self, thread_id: str, upto: int) -> None:
        """Read, redact and index ``thread_id``'s records past its progress, up to ``upto``."""
        while (done := self._done.get(thread_id, 0)) < upto:
            records = await self._read(thread_id, done, upto=upto, limit=BATCH)
            if not records:
                return
            calls = await self._open_calls(thread_id)
            opened = {c: (call, self._marks.get((thread_id, c))) for c, call in calls.items()}
            job = partial(pending_rows, thread_id, records, opened)
            rows, marks = await asyncio.to_thread(job)
            await asyncio.to_thread(self.index.add, rows)
            self._marks.update({(thread_id, call): seq for call, seq in marks})
            self._done[thread_id] = records[-1][0]

    async def stop(self) -> None:
        """End the build or catch-up (the log is closing)."""
        task, self._everything = self._everything, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})
