"""One follower's stream: catch up from the log alone, then write what the hub encoded.

A follower that starts behind the hub (``Last-Event-ID``, a new follower on a
long thread, one the hub dropped for falling behind) reads the log at its
own pace, exactly as every follower did before the hub (its own ``Replay``
and ``Follower``; reads and redaction still shared, ``state.SharedReads``
and ``wire.memo``), in batches that never pass the hub's seq. Where its
position equals the hub's it joins, in one step with no ``await``:
``Follower.join`` gives the deltas that make its client's live text the
hub's, and from then on it writes the hub's chunks. So every follower gets
every frame once, in order, with ids that only grow.

Dropped (its queue over the bound, ``server.live.hub``), it starts over from the
last seq it wrote, as a client resuming with that ``Last-Event-ID`` would:
nothing skipped, nothing repeated (a running call's text comes as a reset).
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator
from contextlib import aclosing

from toolview.server.live.batches import FIRST_BATCH, next_limit
from toolview.server.live.chunk import Chunk
from toolview.server.live.hub import Hub, Member
from toolview.server.live.hubs import Hubs
from toolview.wire.follow import Follower, Mode
from toolview.wire.log import Replay

__all__ = ["follow_chunks"]


async def follow_chunks(
    hubs: Hubs, thread_id: str, after: int, mode: Mode
) -> AsyncGenerator[Chunk, None]:
    """Every frame after seq ``after`` for one follower, as chunks to write, forever."""
    hub = hubs.use(thread_id, mode)
    try:
        position = after
        while True:
            member = Member(hubs.queue_bytes)
            async with aclosing(_catch_up(hubs, hub, mode, position, member)) as caught:
                async for chunk in caught:
                    yield chunk
                    position = chunk.seq
            try:
                while (chunk_or_none := await member.next()) is not None:
                    yield chunk_or_none
                    position = chunk_or_none.seq
            finally:
                hub.leave(member)
    finally:
        hub.release()


async def _catch_up(
    hubs: Hubs, hub: Hub, mode: Mode, after: int, member: Member
) -> AsyncGenerator[Chunk, None]:
    """The log from ``after`` to the hub's seq, as chunks; then ``member`` is in the hub."""
    thread_id = hub.loop.thread_id
    replay = Replay(hubs.reads, thread_id, after)
    follower = Follower(mode, hubs.redactor)
    first = follower.start(after, await replay.running_at_start(), time.monotonic())
    if first:
        yield Chunk.of(first, after, mode)
    limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
    while True:
        target = hub.position
        if target == replay.position:
            frames = follower.join(hub.follower)  # no await between the check and the join
            hub.join(member)
            if frames:
                yield Chunk.of(frames, replay.position, mode)
            return
        if target is None or target < replay.position:
            await hub.moved(hubs.keepalive)  # the hub has not read this far yet
            continue
        asked = min(limit, target - replay.position)  # seqs are gapless: never past the hub
        items = await replay.next_batch(asked)
        now = time.monotonic()
        frames = [frame for item in items for frame in follower.push(item, now)]
        size = sum(len(frame.data) for frame in frames)
        frames += follower.due(now)
        if frames:
            yield Chunk.of(frames, replay.position, mode)
        if items:
            limit = next_limit(limit, size, len(items))
        if len(items) < asked:  # the log holds less than the hub read: wait for it
            await hubs.reads.wait(thread_id, replay.position, hubs.keepalive)
