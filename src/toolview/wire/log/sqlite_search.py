"""Keeping the SQLite log's search index caught up, after appends, off their path.

``sqlite_fts`` says what is indexed and how; this is when. One task at a
time per log catches the index up (``later``, after each append); a search
first has every thread caught up (``caught_up``), so it sees every record
appended before it. Two catch-ups that race index nothing twice: each batch is
stored only if the thread's progress is still where its rows start
(``store_rows``).

A search waits for that catch-up only so long: the first search after a big
log was loaded (or a log from before the index was opened) waited seconds for
it. The catch-up is one task, shared by the searches that wait for it, and it
goes on when they stop waiting. It reads on a connection of its own
(``SQLiteLog``), never under the lock the log's other reads take, and stores
``BATCH`` records a transaction, so a POST waits for one batch at most.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

from toolview.wire.feed import decode_open_call
from toolview.wire.log.sqlite_fts import BEHIND, ONE_BEHIND, OPEN_CALLS, Pending, pending_rows

__all__ = ["SearchIndexer"]

BATCH: Final = 128  # records redacted and stored per transaction: the writer is held briefly

Reader = Callable[..., Awaitable[list[tuple[int, bytes]]]]
Query = Callable[[str, tuple[object, ...]], Awaitable[list[Any]]]
Store = Callable[[str, int, int, Pending], Awaitable[bool]]


class SearchIndexer:
    """Indexes what the log holds past each thread's progress (see the module)."""

    def __init__(self, read: Reader, query: Query, store: Store) -> None:
        self._read, self._query, self._store = read, query, store
        self._task: asyncio.Task[None] | None = None
        self._everything: asyncio.Task[None] | None = None  # every thread, for the searches
        self._appended: set[str] = set()  # threads appended to since the task took its last

    def later(self, thread_id: str) -> None:
        """Catch ``thread_id`` up in the background (after an append to it).

        Only the threads appended to are looked at, each by its key: an append
        never scans the thread table (tests/load/test_big_thread.py).
        """
        self._appended.add(thread_id)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._appended_threads())
            self._task.add_done_callback(_retrieved)

    async def _appended_threads(self) -> None:
        while self._appended:
            thread_id = self._appended.pop()
            while behind := await self._query(ONE_BEHIND, (thread_id,)):
                if not await self._thread(*behind[0]):
                    break  # nothing to read past its progress: never spin

    async def caught_up(self, seconds: float) -> bool:
        """Index every record stored so far; False if that took more than ``seconds``.

        The catch-up goes on after a False, for the next search; a failure is
        raised here as before (the log is closing, the file is unreadable).
        """
        if self._everything is None or self._everything.done():
            self._everything = asyncio.create_task(self._now())
            self._everything.add_done_callback(_retrieved)
        done, _ = await asyncio.wait({self._everything}, timeout=max(seconds, 0.0))
        if not done:
            return False
        self._everything.result()
        return True

    async def _now(self) -> None:
        """Index every record stored so far that is not indexed yet (every thread)."""
        await self.settle()
        while behind := await self._query(BEHIND, ()):
            for thread_id, done in behind:
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
        """Wait for the background catch-up, if one runs (then ``now`` has little left)."""
        if self._task is not None and not self._task.done():
            await asyncio.gather(self._task, return_exceptions=True)

    async def stop(self) -> None:
        """End the background catch-ups (the log is closing)."""
        tasks = [task for task in (self._task, self._everything) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _retrieved(task: asyncio.Task[None]) -> None:
    """A failed background catch-up is retried by the next append or search: not lost."""
    if not task.cancelled():
        task.exception()
