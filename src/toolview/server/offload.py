"""Heavy work of one request off the event loop, a bounded number of threads at a time.

Why: parsing a 16 MiB batch held the loop ~5 s, rebuilding and redacting the
partials of a thread with ~20 MB of output ~7 s, and every other client
waited. Decoding, validating, redacting, translating and encoding now run in a
worker thread (at most ``WORKERS`` at once, so big requests queue behind each
other rather than take every thread); the loop only does I/O. Python threads
share one interpreter lock, so the loop still gets its turn every switch
interval (5 ms) instead of after the whole job.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final, TypeVar

import anyio
import anyio.to_thread
import msgspec

from toolview.wire.feed import LogItem, PartialRecord
from toolview.wire.log import ObservationLog, Replay

__all__ = ["WORKERS", "OffLoopReplay", "in_worker"]

WORKERS: Final = 2  # the machines this runs on have few cores; the loop needs one
T = TypeVar("T")


async def in_worker(workers: anyio.CapacityLimiter, function: Callable[[], T]) -> T:
    """``function()`` in a worker thread, once ``workers`` (the app's limiter) has room."""
    return await anyio.to_thread.run_sync(function, limiter=workers)


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
