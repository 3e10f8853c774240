"""The hub's reading loop: the thread's new records, as frames, once for every member.

It is what one follower's loop was before the hub (``server.live.follower``
still runs that loop for a follower catching up), started at the log's end:
read a batch (sized by bytes, ``server.live.streams.next_limit``), turn it into
frames with ONE ``Follower``, hand them to ``publish``, wait for more. The
position moves and ``publish`` runs in one step with no ``await`` between,
so a follower that compares its position with the hub's sees the state
that goes with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from toolview.server.live.batches import FIRST_BATCH, next_limit
from toolview.server.live.chunk import Chunk
from toolview.wire.follow import Follower, Mode, Redactor
from toolview.wire.log import ObservationLog, Replay

__all__ = ["HubLoop"]


class HubLoop:
    """Reads one thread from the log's end on, as frames of one mode."""

    def __init__(
        self,
        reads: ObservationLog,
        thread_id: str,
        mode: Mode,
        redactor: Redactor,
        keepalive: float,
    ) -> None:
        self.reads = reads
        self.thread_id = thread_id
        self.mode: Mode = mode
        self.keepalive = keepalive
        self.follower = Follower(mode, redactor)
        self.position: int | None = None  # set once started
        self.stopped = False  # the hub stopped: return at the next step

    async def run(self, publish: Callable[[Chunk | None], None]) -> None:
        """Forever: every step's frames to ``publish`` as one chunk (``None`` when started)."""
        info = await self.reads.thread(self.thread_id)
        replay = Replay(self.reads, self.thread_id, info.last_seq if info else 0)
        running = await replay.running_at_start()
        self.follower.start(replay.position, running, time.monotonic())  # sent to nobody yet
        self.position = replay.position
        publish(None)
        limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
        while not self.stopped:
            asked = limit
            items = await replay.next_batch(asked)
            now = time.monotonic()
            follower = self.follower
            frames = [frame for item in items for frame in follower.push(item, now)]
            size = sum(len(frame.data) for frame in frames)
            frames += follower.due(now)
            self.position = replay.position
            publish(Chunk.of(frames, replay.position, self.mode) if frames else None)
            if items:
                limit = next_limit(limit, size, len(items))
            if len(items) == asked:
                continue  # maybe more: read on; a short batch was the end, so wait
            deadline = follower.next_deadline()
            timeout = self.keepalive if deadline is None else deadline - time.monotonic()
            if timeout > 0:
                await self.reads.wait(self.thread_id, replay.position, timeout)
