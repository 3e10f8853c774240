"""Threads kept projected in memory, so a page request reads only what is new.

Before this, every call fragment replayed its whole thread from the log:
O(thread) per request, O(n²) over a thread followed live. Now each thread
keeps a ``Thread`` built so far and the ``Replay`` that fed it; a request
reads only the records after the seq it reached, and adds them.

Why the cache is never stale beyond "not yet read": a thread's records are
append-only and numbered by strictly increasing seqs, and a stored record is
never rewritten. A projection at seq ``s`` therefore holds exactly what a cold
replay up to ``s`` holds, and every request first reads everything after
``s``. The ``Replay`` is kept, not re-created at ``s``: its reconstructor
still holds the text of the calls running at ``s``, so their next delta
applies at once — a new ``Replay`` there would re-read each running call's
records back to its anchor. Two things would break the append-only premise,
and both rebuild from scratch: the log holding fewer records than the
projection read (a store that lost data), and a thread re-created under the
same id (another ``created`` time). A read that fails half-way drops the
entry, since its replay may have moved past records it never added.

Beside the thread, a ``Tally`` (``server.page.tally``) keeps its summary, its
pending calls and a version per call, updated per observation as it is folded.

Decoding and folding run in a worker thread (``toolview.server.offload``)
under the entry's lock, so whoever reads a projection's ``thread`` or
``tally`` holds that lock too (``pieces.plan`` copies what a page needs under
it, then renders without it): a worker may be adding to it meanwhile.

Why memory is bounded: a ``Thread`` keeps, per call, its call and its LATEST
result only (a partial replaces the previous one, never appends; a second
final result is kept to show, at most three per call), plus the messages —
the thread's current state, which a page render holds anyway, never one copy
per observation; the replay adds only the text of calls still
running. At most ``capacity`` threads are kept (least recently used first
out), so memory is bounded by that many thread states.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Final

import anyio

from toolview.contract import Descriptor, ToolResult
from toolview.contract.thread import Thread
from toolview.server.offload import WORKERS, OffLoopReplay, in_worker
from toolview.server.page.tally import Tally
from toolview.wire.feed import LogItem
from toolview.wire.log import ObservationLog, Replay, UnknownThread

__all__ = ["PROJECTION_LIMIT", "Projection", "Projections"]

PROJECTION_LIMIT: Final = 32  # threads kept projected at once
_BATCH: Final = 1000


@dataclass
class Projection:
    """One thread as built so far; ``seq`` is the last seq it holds."""

    thread: Thread
    replay: Replay
    created: float | None  # the thread's creation time: another one is another thread
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tally: Tally = field(default_factory=Tally)  # summary, pending calls, call versions
    drawing: asyncio.Lock = field(default_factory=asyncio.Lock)  # one page render at a time

    @property
    def seq(self) -> int:
        """The seq the thread was read up to."""
        return self.replay.position


class Projections:
    """A bounded LRU of thread projections over one log.

    Read what ``current`` returns under its ``lock``: another request may
    add to the same thread in a worker after that (which only moves it forward).
    """

    def __init__(
        self,
        log: ObservationLog,
        capacity: int = PROJECTION_LIMIT,
        workers: anyio.CapacityLimiter | None = None,
    ) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, not {capacity}")
        self.log = log
        self.capacity = capacity
        self.workers = workers if workers is not None else anyio.CapacityLimiter(WORKERS)
        self._entries: OrderedDict[str, Projection] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, thread_id: object) -> bool:
        return thread_id in self._entries

    async def current(self, thread_id: str) -> Projection:
        """The thread up to its latest seq, reading only records not read yet.

        Raises ``UnknownThread`` if the thread does not exist, and whatever
        the log raises when it is unreachable (the entry is then dropped).
        """
        entry = self._entry(thread_id)
        async with entry.lock:  # checked under the lock: nobody moves it meanwhile
            info = await self.log.thread(thread_id)
            if info is None:
                self._drop(thread_id, entry)
                raise UnknownThread(thread_id)
            if info.created != entry.created or entry.seq > info.last_seq:
                self._reset(entry, info.created)  # re-created, or the store lost records
            try:
                await self._catch_up(entry)
            except BaseException:
                self._reset(entry, None)  # whoever waits on this lock starts clean
                self._drop(thread_id, entry)
                raise
        return entry

    def _entry(self, thread_id: str) -> Projection:
        entry = self._entries.get(thread_id)
        if entry is None:
            entry = Projection(Thread(), self._replay(thread_id), None)
            self._entries[thread_id] = entry
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
        self._entries.move_to_end(thread_id)
        return entry

    def _drop(self, thread_id: str, entry: Projection) -> None:
        if self._entries.get(thread_id) is entry:
            del self._entries[thread_id]

    def _reset(self, entry: Projection, created: float | None) -> None:
        """Back to nothing read, in place (the caller holds the entry's lock)."""
        entry.thread = Thread()
        entry.tally = Tally()
        entry.replay = self._replay(entry.replay.thread_id)
        entry.created = created

    def _replay(self, thread_id: str) -> Replay:
        return OffLoopReplay(self.log, thread_id, 0, self.workers)

    async def _catch_up(self, entry: Projection) -> None:
        """Read on the loop; decode and fold in a worker (the caller holds the entry's lock).

        Why: rebuilding the text of 300 partials up to 6 MB each held the loop
        4 s on a thread's first page request, and every other client waited.
        """
        while batch := await entry.replay.next_batch(_BATCH):
            await in_worker(self.workers, partial(_fold, entry.thread, entry.tally, batch))


def _fold(thread: Thread, tally: Tally, batch: Sequence[LogItem]) -> None:
    for item in batch:
        before = len(thread.entries)
        observation = item.observation
        if isinstance(observation, ToolResult):
            _one_copy(observation)
        thread.add(observation)
        tally.observe(thread, observation, before)


def _one_copy(result: ToolResult) -> None:
    """Props that repeat the result's text hold the text itself, not an equal copy.

    Why: a shell's ``stdout``, a file's ``content`` and a diff's ``diff``
    usually are the text, decoded a second time from the record: 22 MB of
    a 5,000-call thread's 54 MB of strings, kept as long as the projection.
    Equal strings are interchangeable (immutable), so every reader sees the
    same values; the props dict was decoded for this observation alone.
    """
    if isinstance(result.descriptor, Descriptor):
        props, text = result.descriptor.props, result.text
        for name, value in props.items():
            if type(value) is str and value == text:
                props[name] = text
