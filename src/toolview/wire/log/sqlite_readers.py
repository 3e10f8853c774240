"""The SQLite log's search connections: a few of their own, in threads of their own.

Why: a search used the log's one read connection, under the lock every read
of the log takes (``GET /events``, a thread's page, a POST's thread lookup), so
while a 500-word search ran (48 s) another thread's ``/events`` waited 28.8 s
instead of 5 ms. In WAL mode readers never wait for each other nor for the
writer, so searches get ``SEARCHERS`` connections of their own and as many
threads — a pool of their own, never the default one the log's other reads
run in, nor the workers ingest uses. More searches than that wait for a
connection, and the wait counts against their deadline (``run_search`` gives
up at once if its turn came too late): a queue of searches never holds one
for longer than its own time.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Final

from toolview.wire.log import SearchHit
from toolview.wire.log.sqlite_query import Terms, run_search

__all__ = ["SEARCHERS", "SearchReaders"]

SEARCHERS: Final = 2  # searches at once; the machines this runs on have few cores


class SearchReaders:
    """``SEARCHERS`` read connections and threads, for searches only."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        for _ in range(SEARCHERS):
            self._idle.put(connect())
        self._threads = ThreadPoolExecutor(SEARCHERS, thread_name_prefix="toolview-search")

    async def search(
        self, terms: Terms, limit: int, deadline: float
    ) -> tuple[list[SearchHit], bool]:
        """``run_search`` on an idle connection, in this pool's threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._threads, partial(self._on_idle, terms, limit, deadline)
        )

    def _on_idle(self, terms: Terms, limit: int, deadline: float) -> tuple[list[SearchHit], bool]:
        """In a pool thread: one thread per connection, so one is always idle here."""
        db = self._idle.get_nowait()
        try:
            return run_search(db, terms, limit, deadline)
        finally:
            self._idle.put(db)

    def close(self) -> None:
        """Wait for the searches running (each ends by its deadline), then close."""
        self._threads.shutdown(wait=True, cancel_futures=True)
        while not self._idle.empty():
            self._idle.get_nowait().close()
