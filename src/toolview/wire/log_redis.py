"""The shared log: Redis Streams, so several server processes serve one thread.

Each thread is a stream whose entry ids carry the seq (``<seq>-0``, explicit),
so replay is ``XRANGE`` from an id and follow is ``XREAD BLOCK``. Numbering is
an optimistic transaction (``WATCH`` the counter and the open calls, then
``MULTI``/``EXEC``, retried on conflict), so two processes appending to one
thread never reuse or skip a seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as redis
from redis.exceptions import WatchError

from toolview.contract import Observation
from toolview.wire.feed import (
    OpenCall,
    decode_open_call,
    encode_batch,
    encode_open_call,
    record_call_id,
)
from toolview.wire.log import ThreadInfo, UnknownThread

__all__ = ["RedisLog"]

_BLOCK_MS = 250  # how long one XREAD blocks before the set of followed streams is renewed


class RedisLog:
    """The ``ObservationLog`` on Redis Streams."""

    def __init__(self, url: str, *, prefix: str = "toolview") -> None:
        self.url = url
        self.prefix = prefix
        # redis-py's async stubs type replies as unions of everything; the replies
        # are checked where they are read instead.
        # A blocking pool: under a burst (500 followers reading at once) a caller
        # waits for a connection instead of failing.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=None)
        self._redis: Any = redis.Redis(connection_pool=pool)
        self._watches: dict[str, _Watch] = {}
        self._watcher: asyncio.Task[None] | None = None

    def _key(self, thread_id: str, part: str) -> str:
        return f"{self.prefix}:thread:{thread_id}:{part}"

    @property
    def _index(self) -> str:
        return f"{self.prefix}:threads"

    async def create_thread(self, thread_id: str) -> bool:
        """Create the thread; ``False`` if it already existed."""
        added = await self._redis.zadd(self._index, {thread_id: time.time()}, nx=True)
        return bool(added)

    async def threads(self) -> list[ThreadInfo]:
        """Every thread, oldest first."""
        rows = await self._redis.zrange(self._index, 0, -1, withscores=True)
        return [await self._info(bytes(raw).decode(), float(score)) for raw, score in rows]

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """One thread, or ``None``."""
        score = await self._redis.zscore(self._index, thread_id)
        return None if score is None else await self._info(thread_id, float(score))

    async def _info(self, thread_id: str, created: float) -> ThreadInfo:
        last = await self._redis.get(self._key(thread_id, "seq"))
        return ThreadInfo(thread_id, created, int(last or 0))

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """Number and store in one transaction; returns once Redis has it."""
        if await self._redis.zscore(self._index, thread_id) is None:
            raise UnknownThread(thread_id)
        seq_key, calls_key = self._key(thread_id, "seq"), self._key(thread_id, "calls")
        wanted = sorted({cid for cid in map(record_call_id, observations) if cid is not None})
        pipeline: Any = self._redis.pipeline(transaction=True)
        async with pipeline as pipe:
            while True:
                try:
                    await pipe.watch(seq_key, calls_key)
                    last = int(await pipe.get(seq_key) or 0)
                    states = await pipe.hmget(calls_key, wanted) if wanted else []
                    calls = {
                        cid: decode_open_call(bytes(raw))
                        for cid, raw in zip(wanted, states, strict=True)
                        if raw is not None
                    }
                    batch = encode_batch(observations, last, calls)
                    pipe.multi()
                    for seq, body in batch.records:
                        pipe.xadd(self._key(thread_id, "log"), {"b": body}, id=f"{seq}-0")
                    for call_id, call in batch.calls.items():
                        if call is None:
                            pipe.hdel(calls_key, call_id)
                        else:
                            pipe.hset(calls_key, call_id, encode_open_call(call))
                    pipe.set(seq_key, last + len(observations))
                    await pipe.execute()
                    return [seq for seq, _ in batch.records]
                except WatchError:
                    continue

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """Records with ``after < seq ≤ upto``: one ``XRANGE``."""
        high = "+" if upto is None else f"{upto}-0"
        if upto is not None and upto <= after:
            return []
        entries = await self._redis.xrange(
            self._key(thread_id, "log"), min=f"({after}-0", max=high, count=limit
        )
        return [(int(bytes(eid).split(b"-")[0]), bytes(fields[b"b"])) for eid, fields in entries]

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """Calls with partial output and no final result yet."""
        raw = await self._redis.hgetall(self._key(thread_id, "calls"))
        return {bytes(cid).decode(): decode_open_call(bytes(state)) for cid, state in raw.items()}

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """Until an entry past ``after`` exists; one shared ``XREAD BLOCK`` for every thread.

        Every follower in this process waits on one watcher task that blocks on
        all followed streams at once, so 500 followers of one thread, or one
        follower on each of a thousand threads, cost one Redis connection.
        """
        watch = self._watches.get(thread_id)
        if watch is None:
            last = int(await self._redis.get(self._key(thread_id, "seq")) or 0)
            watch = self._watches.setdefault(thread_id, _Watch(last))
        watch.waiters += 1
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch_all())
        try:
            deadline = time.monotonic() + timeout
            while watch.last <= after:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watch.changed.wait(), remaining)
            return True
        finally:
            watch.waiters -= 1

    async def _watch_all(self) -> None:
        """Block on every stream someone waits on; forget threads nobody waits on.

        A thread first followed while the read blocks joins it within ``_BLOCK_MS``.
        """
        while True:
            for thread_id, watch in list(self._watches.items()):
                if watch.waiters == 0:
                    del self._watches[thread_id]
            if not self._watches:
                return
            keys = {self._key(t, "log").encode(): t for t in self._watches}
            streams = {key: f"{self._watches[t].last}-0" for key, t in keys.items()}
            try:
                found = await self._redis.xread(streams, count=1000, block=_BLOCK_MS)
            except redis.RedisError:
                await asyncio.sleep(0.5)  # the server went away: keep trying
                continue
            for key, entries in found or []:
                watch_or_none = self._watches.get(keys[bytes(key)])
                if watch_or_none is not None and entries:
                    watch_or_none.advance(max(int(bytes(e).split(b"-")[0]) for e, _ in entries))

    async def aclose(self) -> None:
        """Stop the watchers and close the connection pool."""
        if self._watcher is not None:
            self._watcher.cancel()
        await self._redis.aclose()


@dataclass
class _Watch:
    """The highest seq seen on one thread, and an event set whenever it grows."""

    last: int
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    waiters: int = 0

    def advance(self, last: int) -> None:
        """Record a new highest seq and wake every waiter."""
        if last > self.last:
            self.last = last
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()
