"""A thread's markup, one piece per entry, rendered in worker processes and cached.

Why: a page view rendered every call of its thread (2-6 ms of CPU each: 18 s
to a minute at 10,000 calls) in a worker thread, which shares the interpreter
lock with the event loop: a trivial request took 29× its idle time meanwhile,
and the same thread's summary waited for the whole render (124×).
Now a view plans, under the projection's lock, which pieces it needs: a
cached piece is reused, the rest are copied out (a call with what its thread
says of it: state, run outcome and reason — all the view asks) and rendered
in worker processes (``offload.in_process``) after the lock is released, so
the live page's fragments and summary of the same thread do not wait for it.

A piece is cached under ``(epoch, position, version)``: entries are only
appended, so a position names one entry of one projection (``epoch``), and a
call's version moves whenever it may read differently (``server.page.tally``).
What a piece is made of is exactly what ``render_thread_html`` joins, so a
page is the same markup either way (tests/server/test_pieces.py).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Final

import anyio

from toolview.contract import CallEntry
from toolview.contract.counts import SessionCounts
from toolview.render.html import successes_open
from toolview.render.html.receipt import summary_html
from toolview.render.summary import Summary
from toolview.server.offload import ProcessesUnavailable, in_process, in_worker
from toolview.server.page.pieces.cache import PieceCache, PieceKey
from toolview.server.page.pieces.jobs import Job, call_job, render_jobs
from toolview.server.page.projection import Projection, Projections
from toolview.server.page.window import CallWindow

__all__ = ["Drawn", "draw_thread", "next_tick", "plan", "thread_markup"]

CHUNK: Final = 32  # pieces per job sent to a process: a few ms of work each
_ALONE: Final = 4  # at most this many pieces render in a worker thread, not a process
_TICKS: Final = itertools.count(1)
_LOG: Final = logging.getLogger(__name__)


def next_tick() -> int:
    """A new request's mark in the cache (what it used is not evicted for what it adds)."""
    return next(_TICKS)


@dataclass
class Drawn:
    """A thread's markup and what the page shows beside it, at ``seq``."""

    seq: int
    summary: Summary | None
    pending: list[CallEntry]
    calls: int
    pieces: list[str | None] = field(default_factory=list)
    keys: list[PieceKey] = field(default_factory=list)
    jobs: list[tuple[int, Job]] = field(default_factory=list)
    first: int = 0  # the index (among the thread's calls) of the first call drawn
    lead: str = ""  # markup before the pieces (the window's "load more")
    # the session's counts, its sub-agents' included (``contract.counts``): the page's header
    counts: SessionCounts = field(default_factory=SessionCounts)

    @property
    def html(self) -> str:
        """The thread (or its window) as ``render_thread_html`` gives it."""
        parts = [piece or "" for piece in self.pieces]
        if self.summary is not None:
            parts.append(summary_html(self.summary))
        return '<div class="tv-thread">' + self.lead + "\n".join(parts) + "</div>"

    @property
    def fragment(self) -> str:
        """The pieces alone: calls (and the messages among them) to insert into a page."""
        return "\n".join(piece or "" for piece in self.pieces)


def plan(
    projection: Projection, cache: PieceCache, tick: int, window: CallWindow | None = None
) -> Drawn:
    """What the thread (or the calls ``window`` picks) holds now: cached pieces, copies of the rest.

    ``pieces``, ``keys`` and ``jobs`` count from the window's first entry.
    """
    thread, tally = projection.thread, projection.tally
    counts = thread.counts()
    drawn = Drawn(
        projection.seq, tally.summary(counts), thread.pending(), tally.calls, counts=counts
    )
    start, stop = 0, len(thread.entries)
    if window is not None:
        drawn.first, start, stop = window.entries(thread)
    for position in range(start, stop):
        entry = thread.entries[position]
        version = tally.versions.get(entry.tool_call_id, 0) if isinstance(entry, CallEntry) else 0
        key = (tally.epoch, position, version, successes_open(tally.calls))
        piece = cache.get(key, tick)
        if piece is None:
            job = call_job(thread, entry, tally.calls) if isinstance(entry, CallEntry) else entry
            drawn.jobs.append((position - start, job))
        drawn.pieces.append(piece)
        drawn.keys.append(key)
    return drawn


async def thread_markup(
    projections: Projections,
    cache: PieceCache,
    thread_id: str,
    window: CallWindow | None = None,
    *,
    alone: bool = False,
) -> Drawn:
    """The thread's pieces, the missing ones rendered off the loop (see the module).

    Views of one thread draw one at a time (``drawing``, not the projection's
    lock): a second viewer of a cold page then finds the first one's pieces
    cached instead of rendering them all again beside it. ``alone``: render
    in a worker thread, never the processes (``draw_thread``).
    """
    tick = next_tick()
    projection = await projections.current(thread_id)
    async with projection.drawing:
        async with projection.lock:
            drawn = await in_worker(
                projections.workers, partial(plan, projection, cache, tick, window)
            )
        await draw_thread(drawn, cache, tick, projections.workers, alone=alone)
    return drawn


async def draw_thread(
    drawn: Drawn,
    cache: PieceCache,
    tick: int,
    workers: anyio.CapacityLimiter,
    *,
    alone: bool = False,
) -> None:
    """Render ``drawn``'s missing pieces (a few in a thread, more in processes) and keep them.

    ``alone``: all in a worker thread, at the server's priority — for a server's
    start (``pieces.ahead``), when the render processes (``nice`` 10) may still
    be starting and, on a busy machine, get a few percent of a core. A reader's
    view never draws alone while they warm up: a big window drawn in the
    server's process held every other request (tests/server/test_page_load.py:
    a stylesheet 7× its idle latency); it waits for the processes instead.
    """
    jobs = [job for _, job in drawn.jobs]
    if not jobs:
        return
    if alone or len(jobs) <= _ALONE:  # a process round trip would cost more than it saves
        chunks = [await in_worker(workers, partial(render_jobs, jobs))]
    else:
        chunks = await _in_processes(jobs, workers)
    html = [piece for chunk in chunks for piece in chunk]
    for (position, _), piece in zip(drawn.jobs, html, strict=True):
        drawn.pieces[position] = piece
        cache.put(drawn.keys[position], piece, tick)


async def _in_processes(jobs: list[Job], workers: anyio.CapacityLimiter) -> list[list[str]]:
    """``jobs`` rendered by the worker processes, a chunk each; in a thread if there are none."""
    parts = [jobs[i : i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    try:
        return await asyncio.gather(*(in_process(partial(render_jobs, p)) for p in parts))
    except ProcessesUnavailable as exc:
        _LOG.warning("rendering pages in a thread, other requests will wait: %s", exc)
        return [await in_worker(workers, partial(render_jobs, jobs))]
