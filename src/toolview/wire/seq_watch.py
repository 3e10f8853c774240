"""``Watch``: the highest seq seen on one thread, shared by every waiter on it.

Both log backends wait the same way — one watch per followed thread, woken by
whatever learns of a new seq (an append in this process, a poll, an ``XREAD``)
— and differ only in how they learn it, so the waiting lives here once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

__all__ = ["Watch"]


@dataclass
class Watch:
    """The highest seq seen on one thread, and an event set whenever it grows."""

    last: int
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None  # the backend's poller, if it has one per thread
    waiters: int = 0

    def advance(self, last: int) -> None:
        """Record a new highest seq and wake every waiter."""
        if last > self.last:
            self.last = last
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()

    async def wait_past(self, after: int, timeout: float) -> bool:
        """Until a seq past ``after`` is seen (``True``) or ``timeout`` seconds pass.

        Counts itself in ``waiters`` meanwhile, so the backend knows when
        nobody waits any more and can stop watching the thread.

        ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11
        ``wait_for`` drops a cancellation that arrives as the event is set, so
        a cancelled waiter (a thread's hub whose followers all went) went on
        waiting, and the backend watched its thread for ever.
        """
        self.waiters += 1
        try:
            deadline = time.monotonic() + timeout
            while self.last <= after:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(remaining):  # not wait_for: see below
                        await self.changed.wait()
            return True
        finally:
            self.waiters -= 1
