"""The shared log: Redis Streams, so several server processes serve one thread.

Each thread is a stream whose entry ids carry the seq (``<seq>-0``, explicit),
so replay is ``XRANGE`` from an id and follow is ``XREAD BLOCK``. Numbering is
an optimistic transaction (``WATCH`` the counter and the open calls, then
``MULTI``/``EXEC``, retried on conflict), so two processes appending to one
thread never reuse or skip a seq. An idempotency key goes into the same
``MULTI``: a per-thread hash (key → seq range and digest) and a list of keys in
the order they came, trimmed to ``keep_keys``; both are watched too, so two
processes given one key store its batch once.

That transaction (``redis_append``) runs on a synchronous client in a
worker thread: encoding a batch and redis-py's packing and parsing of its
10,000 ``XADD``s and replies are CPU work that held the event loop (a small
request waited 0.28 of a big POST's 0.63 s); in a worker the loop gets its
turn every switch interval.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from functools import partial
from typing import Any, Final

import redis as redis_sync
import redis.asyncio as redis

from toolview.contract import Observation
from toolview.wire.feed import OpenCall, decode_open_call
from toolview.wire.idempotency import KEEP_KEYS, Appended, Keyed, Outcome
from toolview.wire.log import SearchResult, SearchUnsupported, ThreadInfo
from toolview.wire.log.redis_append import RedisKeys, append_batch, append_each
from toolview.wire.log.redis_cards import card_fields, taken
from toolview.wire.log.redis_search import INDEX_KIND, RedisSearch
from toolview.wire.log.sqlite_cards import KeptCard
from toolview.wire.log.sqlite_query import SEARCH_SECONDS, fts_terms
from toolview.wire.seq_watch import Watch
from toolview.wire.sources import SourceMove

SEARCH_OFF: Final = (
    "this Redis server keeps no search index: start it with --search-memory MIB (each"
    " process keeps an index of the streams in memory), or search one thread at a time"
    " (GET /api/threads/{id}/search)"
)

__all__ = ["SEARCH_OFF", "RedisLog"]

_BLOCK_MS = 250  # how long one XREAD blocks before the set of followed streams is renewed


class RedisLog:
    """The ``ObservationLog`` on Redis Streams."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "toolview",
        keep_keys: int = KEEP_KEYS,
        search_bytes: int = 0,
    ) -> None:
        self.url = url
        self.prefix = prefix
        self._keys = RedisKeys(prefix)
        self.keep_keys = keep_keys  # idempotency keys remembered per thread
        # redis-py's async stubs type replies as unions of everything; the replies
        # are checked where they are read instead.
        # A blocking pool: under a burst (500 followers reading at once) a caller
        # waits for a connection instead of failing.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=None)
        self._redis: Any = redis.Redis(connection_pool=pool)
        # appends only, each in a worker thread (asyncio's default executor)
        self._sync_pool = redis_sync.BlockingConnectionPool.from_url(
            url, max_connections=16, timeout=None
        )
        self._sync: Any = redis_sync.Redis(connection_pool=self._sync_pool)
        self._watches: dict[str, Watch] = {}
        self._watcher: asyncio.Task[None] | None = None
        # the process's word index, only when asked for (serve --search-memory): it costs
        # ~4x its budget in Python objects and an index step on every append
        self._search = (
            RedisSearch(self.read, self.open_calls, self._seqs, search_bytes)
            if search_bytes > 0
            else None
        )

    async def create_thread(self, thread_id: str) -> bool:
        """Create the thread; ``False`` if it already existed."""
        added = await self._redis.zadd(self._keys.index, {thread_id: time.time()}, nx=True)
        return bool(added)

    async def threads(self) -> list[ThreadInfo]:
        """Every thread, oldest first."""
        rows = await self._redis.zrange(self._keys.index, 0, -1, withscores=True)
        return [await self._info(bytes(raw).decode(), float(score)) for raw, score in rows]

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """One thread, or ``None``."""
        score = await self._redis.zscore(self._keys.index, thread_id)
        return None if score is None else await self._info(thread_id, float(score))

    async def _info(self, thread_id: str, created: float) -> ThreadInfo:
        last = await self._redis.get(self._keys.thread(thread_id, "seq"))
        return ThreadInfo(thread_id, created, int(last or 0))

    async def kept_cards(self) -> list[KeptCard]:
        """The index's cards as last kept (``redis_cards``)."""
        return taken(await self._redis.hgetall(f"{self.prefix}:index-cards"))

    async def keep_cards(self, cards: Sequence[KeptCard]) -> bool:
        """Keep the index's ``cards`` (``redis_cards``), each in place of its thread's last."""
        if cards:
            await self._redis.hset(f"{self.prefix}:index-cards", mapping=card_fields(cards))
        return True

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """Number and store in one transaction; returns once Redis has it."""
        return (await self._append(thread_id, observations, None)).seqs

    async def append_once(
        self, thread_id: str, observations: Sequence[Observation], key: str
    ) -> Appended:
        """``append`` with the key written in the same ``MULTI`` (see ``ObservationLog``)."""
        return await self._append(thread_id, observations, key)

    async def append_each(self, thread_id: str, batches: Sequence[Keyed]) -> list[Outcome]:
        """Several keyed batches in one ``MULTI`` (see ``ObservationLog``)."""
        job = partial(append_each, self._sync, self._keys, thread_id, batches, self.keep_keys)
        outcomes = await asyncio.to_thread(job)
        await self._indexed(thread_id)
        return outcomes

    async def append_from(
        self, thread_id: str, observations: Sequence[Observation], move: SourceMove
    ) -> list[int]:
        """``append`` and move a read position in the same ``MULTI`` (see ``wire.sources``)."""
        return (await self._append(thread_id, observations, None, move)).seqs

    async def position(self, source: str) -> bytes | None:
        """The stored read position of ``source``, or ``None``."""
        raw = await self._redis.get(self._keys.source(source))
        return None if raw is None else bytes(raw)

    async def _append(
        self,
        thread_id: str,
        observations: Sequence[Observation],
        key: str | None,
        move: SourceMove | None = None,
    ) -> Appended:
        job = partial(append_batch, self._sync, self._keys, thread_id, observations, key)
        appended = await asyncio.to_thread(job, self.keep_keys, move)
        await self._indexed(thread_id)
        return appended

    async def _indexed(self, thread_id: str) -> None:
        """Index what the append stored before it answers (``redis_search``)."""
        if self._search is None:
            return
        last = await self._redis.get(self._keys.thread(thread_id, "seq"))
        await self._search.thread(thread_id, int(last or 0))

    async def _seqs(self) -> dict[str, int]:
        """Every thread's last seq: one ``ZRANGE``, one ``MGET`` (the search's catch-up)."""
        ids = [bytes(raw).decode() for raw in await self._redis.zrange(self._keys.index, 0, -1)]
        if not ids:
            return {}
        lasts = await self._redis.mget([self._keys.thread(t, "seq") for t in ids])
        return {t: int(last or 0) for t, last in zip(ids, lasts, strict=True)}

    def start_search(self) -> None:
        """Begin building this process's search index from the streams (``redis_search``)."""
        if self._search is not None:
            self._search.start()

    async def search(self, query: str, limit: int, seconds: float = SEARCH_SECONDS) -> SearchResult:
        """The best ``limit`` matches of ``query``'s words in every thread (``word_index``).

        Every record stored before it is indexed first, for at most half of
        ``seconds``; either running out answers ``stopped: "time"``.
        """
        if self._search is None:
            raise SearchUnsupported(SEARCH_OFF)
        deadline = time.monotonic() + seconds
        terms = fts_terms(query)
        if not terms.words:
            return SearchResult([], [], terms.dropped, index=INDEX_KIND)
        caught_up = await self._search.caught_up(seconds / 2)
        hits, late = await self._search.search(terms, limit, deadline)
        stopped = "time" if late or not caught_up else None
        return SearchResult(hits, terms.words, terms.dropped, stopped, INDEX_KIND)

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """Records with ``after < seq ≤ upto``: one ``XRANGE``."""
        high = "+" if upto is None else f"{upto}-0"
        if upto is not None and upto <= after:
            return []
        entries = await self._redis.xrange(
            self._keys.thread(thread_id, "log"), min=f"({after}-0", max=high, count=limit
        )
        return [(int(bytes(eid).split(b"-")[0]), bytes(fields[b"b"])) for eid, fields in entries]

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """Calls with partial output and no final result yet."""
        raw = await self._redis.hgetall(self._keys.thread(thread_id, "calls"))
        return {bytes(cid).decode(): decode_open_call(bytes(state)) for cid, state in raw.items()}

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """Until an entry past ``after`` exists; one shared ``XREAD BLOCK`` for every thread.

        Every follower in this process waits on one watcher task that blocks on
        all followed streams at once, so 500 followers of one thread, or one
        follower on each of a thousand threads, cost one Redis connection.
        """
        watch = self._watches.get(thread_id)
        if watch is None:
            last = int(await self._redis.get(self._keys.thread(thread_id, "seq")) or 0)
            watch = self._watches.setdefault(thread_id, Watch(last))
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch_all())
        return await watch.wait_past(after, timeout)  # counts itself before the watcher runs

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
            keys = {self._keys.thread(t, "log").encode(): t for t in self._watches}
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
        """Stop the watchers and the search's catch-up, and close the connection pools."""
        if self._search is not None:
            await self._search.stop()
        if self._watcher is not None:
            self._watcher.cancel()
        await self._redis.aclose()
        await asyncio.to_thread(self._sync_pool.disconnect)
