"""The Redis log's key names, and the optimistic transaction that numbers and writes a batch.

Why apart from ``RedisLog``: this is the log's numbering — ``WATCH`` the
counter, the open calls and the idempotency keys, then ``MULTI``/``EXEC``,
retried on conflict, so two processes appending to one thread never reuse or
skip a seq and store a keyed batch once — run on a synchronous client in a
worker thread, while ``redis`` is the asynchronous service around it
(reads, the shared ``XREAD BLOCK`` watcher).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import WatchError

from toolview.contract import Observation
from toolview.wire.feed import decode_open_call, encode_batch, encode_open_call, record_call_id
from toolview.wire.idempotency import Appended, Remembered, batch_digest
from toolview.wire.log import UnknownThread
from toolview.wire.sources import SourceMove

__all__ = ["RedisKeys", "append_batch"]


@dataclass(frozen=True)
class RedisKeys:
    """The names of one log's Redis keys, all under ``prefix``."""

    prefix: str

    @property
    def index(self) -> str:
        """The sorted set of every thread, scored by creation time."""
        return f"{self.prefix}:threads"

    def thread(self, thread_id: str, part: str) -> str:
        """A thread's key: ``log`` (its stream), ``seq``, ``calls``, ``keys`` or ``keyorder``."""
        return f"{self.prefix}:thread:{thread_id}:{part}"

    def source(self, source: str) -> str:
        """A read position's key (``wire.sources``): the source's name as it is."""
        return f"{self.prefix}:source:{source}"


def append_batch(
    client: Any,
    keys: RedisKeys,
    thread_id: str,
    observations: Sequence[Observation],
    key: str | None,
    keep_keys: int,
    move: SourceMove | None = None,
) -> Appended:
    """The optimistic transaction, on the synchronous ``client`` (in a worker thread).

    A ``move`` of a read position is checked under the same ``WATCH`` and
    written in the same ``MULTI`` (``PositionMoved``: nothing written).
    """
    if client.zscore(keys.index, thread_id) is None:
        raise UnknownThread(thread_id)
    seq_key, calls_key = keys.thread(thread_id, "seq"), keys.thread(thread_id, "calls")
    keys_key, order_key = keys.thread(thread_id, "keys"), keys.thread(thread_id, "keyorder")
    watched = [seq_key, calls_key, keys_key, order_key]
    if move is not None:
        watched.append(keys.source(move.source))
    digest = batch_digest(observations) if key is not None else b""
    wanted = sorted({cid for cid in map(record_call_id, observations) if cid is not None})
    with client.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(*watched)
                if move is not None:
                    move.check(pipe.get(keys.source(move.source)))
                if key is not None and (known := pipe.hget(keys_key, key)) is not None:
                    return Remembered.decode(bytes(known)).replay(key, digest)
                last = int(pipe.get(seq_key) or 0)
                states = pipe.hmget(calls_key, wanted) if wanted else []
                calls = {
                    cid: decode_open_call(bytes(raw))
                    for cid, raw in zip(wanted, states, strict=True)
                    if raw is not None
                }
                forget = _to_forget(pipe, order_key, keep_keys) if key is not None else []
                batch = encode_batch(observations, last, calls)
                pipe.multi()
                for seq, body in batch.records:
                    pipe.xadd(keys.thread(thread_id, "log"), {"b": body}, id=f"{seq}-0")
                for call_id, call in batch.calls.items():
                    if call is None:
                        pipe.hdel(calls_key, call_id)
                    else:
                        pipe.hset(calls_key, call_id, encode_open_call(call))
                pipe.set(seq_key, last + len(observations))
                if move is not None:
                    pipe.set(keys.source(move.source), move.after)
                if key is not None and batch.records:
                    remembered = Remembered(last + 1, last + len(observations), digest)
                    _remember(pipe, keys, thread_id, key, remembered, forget)
                pipe.execute()
                return Appended([seq for seq, _ in batch.records])
            except WatchError:
                continue


def _to_forget(pipe: Any, order_key: str, keep_keys: int) -> list[bytes]:
    """The oldest keys that one more would push past ``keep_keys`` (read under WATCH)."""
    excess = int(pipe.llen(order_key)) + 1 - keep_keys
    return [bytes(k) for k in pipe.lrange(order_key, 0, excess - 1)] if excess > 0 else []


def _remember(
    pipe: Any, keys: RedisKeys, thread_id: str, key: str, batch: Remembered, forget: list[bytes]
) -> None:
    """Queue (inside the ``MULTI``) the key's record and the forgetting of the oldest."""
    keys_key, order_key = keys.thread(thread_id, "keys"), keys.thread(thread_id, "keyorder")
    pipe.hset(keys_key, key, batch.encode())
    pipe.rpush(order_key, key)
    if forget:
        pipe.ltrim(order_key, len(forget), -1)
        pipe.hdel(keys_key, *forget)
