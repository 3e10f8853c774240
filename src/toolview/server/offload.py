"""Heavy work of one request off the event loop, a bounded number of threads at a time.

Why: parsing a 16 MiB batch held the loop ~5 s, rebuilding and redacting the
partials of a thread with ~20 MB of output ~7 s, and every other client
waited. Decoding, validating, redacting, translating and encoding now run in a
worker thread (at most ``WORKERS`` at once, so big requests queue behind each
other rather than take every thread); the loop only does I/O. Python threads
share one interpreter lock, so the loop still gets its turn every switch
interval (5 ms) instead of after the whole job.

That is not enough for pure-Python work that runs for seconds: while a worker
thread rendered a 2,000-call page, a trivial request took 46 ms instead of
0.5 ms (it waits up to a switch interval at each of its system calls).
Rendering therefore runs in worker *processes* (``in_process``): a small
pool, shared by every app of the process, started on first use, at a lower
priority (``nice`` 10): on a machine with every core busy, a render process
at the same priority took the loop's CPU and a trivial request took 4-7× its
idle time; a page view can wait, the requests around it should not.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Final, TypeVar

import anyio
import anyio.to_thread
import msgspec

from toolview.server.parent_watch import exit_with_parent
from toolview.wire.feed import LogItem, PartialRecord
from toolview.wire.log import ObservationLog, Replay

__all__ = [
    "RENDERERS",
    "RENDER_NICENESS",
    "WORKERS",
    "OffLoopReplay",
    "ProcessesUnavailable",
    "in_process",
    "in_worker",
    "warm_processes",
]

WORKERS: Final = 2  # the machines this runs on have few cores; the loop needs one
RENDERERS: Final = max(1, min(2, (os.cpu_count() or 1) - 1))  # processes rendering pages
RENDER_NICENESS: Final = 10  # a busy machine runs the loop's requests before a render
T = TypeVar("T")
_pool: ProcessPoolExecutor | None = None
_unavailable: str | None = None
_pool_lock = threading.Lock()
_LOG: Final = logging.getLogger(__name__)


async def in_worker(workers: anyio.CapacityLimiter, function: Callable[[], T]) -> T:
    """``function()`` in a worker thread, once ``workers`` (the app's limiter) has room."""
    return await anyio.to_thread.run_sync(function, limiter=workers)


class ProcessesUnavailable(RuntimeError):
    """Worker processes cannot run here (or died twice): do the work in a thread."""


async def in_process(function: Callable[[], T]) -> T:
    """``function()`` (picklable) in the shared pool of worker processes.

    A pool whose process died (killed, out of memory) is replaced, and the
    job is tried once more in the new one. If that fails too, or processes
    cannot be started at all (no semaphores; a script without a ``__main__``
    guard, which each spawned process would run again), this and every later
    call raise ``ProcessesUnavailable``: nothing is spawned again.
    """
    global _unavailable  # once processes failed here, they are not tried again
    if _unavailable is not None:
        raise ProcessesUnavailable(_unavailable)
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        try:
            pool = _shared_pool()
            return await loop.run_in_executor(pool, function)
        except (BrokenProcessPool, OSError) as exc:
            _discard()
            if attempt == 2:
                _unavailable = f"worker processes failed: {exc!r}"
                raise ProcessesUnavailable(_unavailable) from exc
    raise AssertionError("unreachable")


def warm_processes(function: Callable[[], T]) -> list[Future[T]]:
    """Start every render process now, each running ``function`` (picklable) once.

    Why: the pool starts on first use, so the first page view waited for a
    process to spawn and import the renderers (1.2-1.7 s). A server calls this
    at its start, while nobody waits. Nothing is awaited and nothing is
    raised: a process that cannot start is found by the first ``in_process``,
    which then renders in a thread as before. The futures are returned for
    whoever wants to know when (and where) each ran.
    """
    futures: list[Future[T]] = []
    if _unavailable is not None:
        return futures
    try:
        pool = _shared_pool()
        # each submission finding no idle process spawns one, up to RENDERERS
        for _ in range(RENDERERS):
            futures.append(pool.submit(function))
            futures[-1].add_done_callback(lambda done: done.exception())
    except (BrokenProcessPool, OSError, RuntimeError) as exc:
        _LOG.warning("render processes not warmed: %r", exc)
    return futures


def _shared_pool() -> ProcessPoolExecutor:
    """The pool, started on first use (spawned: a fork would copy the loop and its threads)."""
    global _pool  # one pool per process, shared by its apps
    with _pool_lock:
        if _pool is None:
            spawn = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                RENDERERS,
                mp_context=spawn,
                initializer=_start_renderer,
                initargs=(RENDER_NICENESS,),
            )
        return _pool


def _start_renderer(niceness: int) -> None:
    """In each render process: a lower priority, and an exit when the server dies
    (``server.parent_watch``)."""
    os.nice(niceness)
    exit_with_parent()


def _discard() -> None:
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


class OffLoopReplay(Replay):
    """``Replay`` whose decoding (rebuilding partial text: O(text) each) runs in a worker."""

    def __init__(
        self, log: ObservationLog, thread_id: str, after: int, workers: anyio.CapacityLimiter
    ) -> None:
        super().__init__(log, thread_id, after)
        self.workers = workers

    async def next_batch(self, limit: int = 512) -> list[LogItem]:
        """As ``Replay.next_batch``; the log is read on the loop, the rest in a worker."""
        records = await self.log.read(self.thread_id, self.position, limit=limit)
        items: list[LogItem] = []
        start = 0
        while start < len(records):
            decode = partial(self._decode, records, start)
            decoded, start, anchor = await in_worker(self.workers, decode)
            items += decoded
            if anchor is not None:
                seq, raw = records[start]
                await self._prime(raw, anchor, seq)
        return items

    def _decode(
        self, records: list[tuple[int, bytes]], start: int
    ) -> tuple[list[LogItem], int, int | None]:
        """Decode from ``start`` until a record needs priming (its index and anchor)."""
        items: list[LogItem] = []
        for index in range(start, len(records)):
            seq, raw = records[index]
            anchor = self.reconstructor.needs(raw)
            if anchor is not None:
                return items, index, anchor
            items.append(self.reconstructor.decode(seq, raw))
            self.position = seq
        return items, len(records), None

    async def _prime(self, raw: bytes, anchor: int, seq: int) -> None:
        record = msgspec.json.decode(raw, type=PartialRecord)
        history = await self.log.read(self.thread_id, anchor - 1, upto=seq - 1, limit=seq)
        prime = partial(self.reconstructor.prime, record.tool_call_id, history)
        await in_worker(self.workers, prime)
