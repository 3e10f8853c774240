"""Keeping the SQLite log's search index caught up: each append indexes its own records.

``sqlite_fts`` says what is indexed and how; this is when. An append indexes
its thread before it answers (``index``), after its commit and outside the
writer: redacting runs with no lock held, and ``BATCH`` records are stored a
transaction, so another POST waits for one batch at most. Index while
ingesting: the first search after a big load used to wait ~1.3-3 s for the
catch-up a background task had left (it lagged the load: redacting costs 5×
the append); now what a POST stored is indexed when it is answered.

A search still has every thread caught up first (``caught_up``: a log file
from before the index, another process's appends, an append whose indexing
failed or was cancelled), so it sees every record appended before it. Two
catch-ups that race index nothing twice: each batch is stored only if the
thread's progress is still where its rows start (``store_rows``); within this
process, one catch-up of a thread runs at a time (the others wait, then find
it done). The search's catch-up is one task, shared by the searches that
wait for it, and it goes on when they stop waiting. It reads on a connection
of its own (``SQLiteLog``), never under the lock the log's other reads take.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

from toolview.wire.feed import decode_open_call
from toolview.wire.log.sqlite_fts import BEHIND, ONE_BEHIND, OPEN_CALLS, Pending, pending_rows

__all__ = ["SearchIndexer", "retrieved"]

BATCH: Final = 128  # records redacted and stored per transaction: the writer is held briefly

Reader = Callable[..., Awaitable[list[tuple[int, bytes]]]]
Query = Callable[[str, tuple[object, ...]], Awaitable[list[Any]]]
Store = Callable[[str, int, int, Pending], Awaitable[bool]]


class SearchIndexer:
    """Indexes what the log holds past each thread's progress (see the module)."""

    def __init__(self, read: Reader, query: Query, store: Store) -> None:
        self._read, self._query, self._store = read, query, store
        self._everything: asyncio.Task[None] | None = None  # every thread, for the searches
        self._threads: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()  # one catch-up per thread at a time; gone when idle
        )

    async def index(self, thread_id: str) -> None:
        """Index what ``thread_id`` holds past its progress (an append awaits it).

        Only that thread is looked at, by its key: an append never scans the
        thread table (tests/load/test_big_thread.py). A failure is not the
        append's: its records are stored, and the next search indexes them.
        """
        lock = self._threads.setdefault(thread_id, asyncio.Lock())
        async with lock:
            try:
                while behind := await self._query(ONE_BEHIND, (thread_id,)):
                    if not await self._thread(*behind[0]):
                        break  # nothing to read past its progress: never spin
            except Exception:  # retried by the next search's catch-up
                return

    async def caught_up(self, seconds: float) -> bool:
        """Index every record stored so far; False if that took more than ``seconds``.

        The catch-up goes on after a False, for the next search; a failure is
        raised here as before (the log is closing, the file is unreadable).
        """
        if self._everything is None or self._everything.done():
            self._everything = asyncio.create_task(self._now())
            self._everything.add_done_callback(retrieved)
        done, _ = await asyncio.wait({self._everything}, timeout=max(seconds, 0.0))
        if not done:
            return False
        self._everything.result()
        return True

    async def _now(self) -> None:
        """Index every record stored so far that is not indexed yet (every thread)."""
        while behind := await self._query(BEHIND, ()):
            for thread_id, done in behind:
                async with self._threads.setdefault(thread_id, asyncio.Lock()):
                    await self._thread(thread_id, done)

    async def _thread(self, thread_id: str, done: int) -> bool:
        """Index the next batch of ``thread_id`` past ``done``; False: there was none."""
        records = await self._read(thread_id, done, limit=BATCH)
        if not records:
            return False
        rows = await self._query(OPEN_CALLS, (thread_id,))
        opened = {call: (decode_open_call(state), seq) for call, state, seq in rows}
        pending = await asyncio.to_thread(partial(pending_rows, thread_id, records, opened))
        await self._store(thread_id, done, records[-1][0], pending)
        return True

    async def settle(self) -> None:
        """Wait for the searches' catch-up, if one runs (the appends' ran before they answered)."""
        if self._everything is not None and not self._everything.done():
            await asyncio.wait({self._everything})

    async def stop(self) -> None:
        """End the searches' catch-up (the log is closing)."""
        if self._everything is not None:
            self._everything.cancel()
            await asyncio.gather(self._everything, return_exceptions=True)


def retrieved(task: asyncio.Task[None]) -> None:
    """A failed background catch-up is retried by the next append or search: not lost."""
    if not task.cancelled():
        task.exception()
