"""``Member``: one follower's place in a hub, a queue of chunks that never makes the hub wait.

Bounded by bytes and by count: over either, the member is dropped (its
queue freed at once) and catches up from the log alone (``server.live.follower``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Final

from toolview.server.live.chunk import Chunk

__all__ = ["QUEUE_BYTES", "QUEUE_CHUNKS", "Member"]

QUEUE_BYTES: Final = 1024 * 1024  # what one member may have waiting; chunks are shared
QUEUE_CHUNKS: Final = 1024


class Member:
    """One follower in a hub: the chunks it has yet to write, at most ``limit`` bytes."""

    def __init__(self, limit: int = QUEUE_BYTES) -> None:
        self.limit = limit
        self.queue: deque[Chunk] = deque()
        self.size = 0
        self.dropped = False  # fell behind: left the hub, catches up from the log
        self.failed: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None

    def offer(self, chunk: Chunk) -> None:
        """Queue ``chunk`` (never waits); over the bound, drop out of the hub instead."""
        if self.queue and (
            self.size + len(chunk.data) > self.limit or len(self.queue) >= QUEUE_CHUNKS
        ):
            self.dropped = True
            self.queue.clear()  # the chunks go now, not when the client reads again
            self.size = 0
        else:
            self.queue.append(chunk)
            self.size += len(chunk.data)
        self._wake()

    def fail(self, error: BaseException) -> None:
        """The hub stopped with ``error``: the member's stream ends with it."""
        self.failed = error
        self._wake()

    async def next(self) -> Chunk | None:
        """The next chunk to write; ``None`` once dropped (the member catches up)."""
        while not self.queue:
            if self.failed is not None:
                raise self.failed
            if self.dropped:
                return None
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        chunk = self.queue.popleft()
        self.size -= len(chunk.data)
        return chunk

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
