"""The Redis log's key names, and the optimistic transaction that numbers and writes a batch.

Why apart from ``RedisLog``: this is the log's numbering — ``WATCH`` the
counter, the open calls and the idempotency keys, then ``MULTI``/``EXEC``,
retried on conflict, so two processes appending to one thread never reuse or
skip a seq and store a keyed batch once — run on a synchronous client in a
worker thread, while ``redis`` is the asynchronous service around it
(reads, the shared ``XREAD BLOCK`` watcher).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from redis.exceptions import WatchError

from toolview.contract import Observation
from toolview.wire.feed import decode_open_call, encode_batch, encode_open_call, record_call_id
from toolview.wire.idempotency import (
    Appended,
    KeyConflict,
    Keyed,
    Outcome,
    Plan,
    Remembered,
    plan_keyed,
)
from toolview.wire.log import UnknownThread
from toolview.wire.sources import SourceMove

__all__ = ["RedisKeys", "append_batch", "append_each"]


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
    if key is None:
        unkeyed = partial(_unkeyed, observations)
        return cast(Appended, _transaction(client, keys, thread_id, unkeyed, keep_keys, move)[0])
    outcome = append_each(client, keys, thread_id, [(key, observations)], keep_keys, move)[0]
    if isinstance(outcome, KeyConflict):
        raise outcome  # nothing was written: the batch was its only one
    return outcome


def append_each(
    client: Any,
    keys: RedisKeys,
    thread_id: str,
    batches: Sequence[Keyed],
    keep_keys: int,
    move: SourceMove | None = None,
) -> list[Outcome]:
    """Several keyed batches in one ``MULTI``, each stored at most once (``plan_keyed``)."""
    keyed = partial(_keyed, keys.thread(thread_id, "keys"), batches)
    return _transaction(client, keys, thread_id, keyed, keep_keys, move)


def _unkeyed(observations: Sequence[Observation], pipe: Any, last: int) -> Plan:
    return Plan(
        [Appended(list(range(last + 1, last + 1 + len(observations))))], [*observations], []
    )


def _keyed(keys_key: str, batches: Sequence[Keyed], pipe: Any, last: int) -> Plan:
    """``plan_keyed`` on the keys the thread remembers (read under ``WATCH``)."""
    wanted = sorted({key for key, _ in batches})
    raws = pipe.hmget(keys_key, wanted) if wanted else []
    known = {
        key: Remembered.decode(bytes(raw))
        for key, raw in zip(wanted, raws, strict=True)
        if raw is not None
    }
    return plan_keyed(batches, known, last)


def _transaction(
    client: Any,
    keys: RedisKeys,
    thread_id: str,
    plan_for: Callable[[Any, int], Plan],
    keep_keys: int,
    move: SourceMove | None,
) -> list[Outcome]:
    """``WATCH``, plan (``plan_for(pipe, last seq)``), ``MULTI``/``EXEC``; again on conflict."""
    if client.zscore(keys.index, thread_id) is None:
        raise UnknownThread(thread_id)
    seq_key, calls_key = keys.thread(thread_id, "seq"), keys.thread(thread_id, "calls")
    order_key = keys.thread(thread_id, "keyorder")
    watched = [seq_key, calls_key, keys.thread(thread_id, "keys"), order_key]
    if move is not None:
        watched.append(keys.source(move.source))
    with client.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(*watched)
                if move is not None:
                    move.check(pipe.get(keys.source(move.source)))
                last = int(pipe.get(seq_key) or 0)
                plan = plan_for(pipe, last)
                if not plan.observations and not plan.remember and move is None:
                    return plan.outcomes  # replays (or nothing): nothing to write
                observations = plan.observations
                wanted = sorted({c for c in map(record_call_id, observations) if c is not None})
                states = pipe.hmget(calls_key, wanted) if wanted else []
                calls = {
                    cid: decode_open_call(bytes(raw))
                    for cid, raw in zip(wanted, states, strict=True)
                    if raw is not None
                }
                remember = plan.remember[max(0, len(plan.remember) - keep_keys) :]  # the last
                forget = _to_forget(pipe, order_key, keep_keys, len(remember))
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
                _remember(pipe, keys, thread_id, remember, forget)
                pipe.execute()
                return plan.outcomes
            except WatchError:
                continue


def _to_forget(pipe: Any, order_key: str, keep_keys: int, adding: int) -> list[bytes]:
    """The oldest keys that ``adding`` more would push past ``keep_keys`` (read under WATCH)."""
    if not adding:
        return []
    excess = int(pipe.llen(order_key)) + adding - keep_keys
    return [bytes(k) for k in pipe.lrange(order_key, 0, excess - 1)] if excess > 0 else []


def _remember(
    pipe: Any,
    keys: RedisKeys,
    thread_id: str,
    batches: Sequence[tuple[str, Remembered]],
    forget: list[bytes],
) -> None:
    """Queue (inside the ``MULTI``) the keys' records and the forgetting of the oldest."""
    if not batches:
        return
    keys_key, order_key = keys.thread(thread_id, "keys"), keys.thread(thread_id, "keyorder")
    pipe.hset(keys_key, mapping={key: batch.encode() for key, batch in batches})
    pipe.rpush(order_key, *(key for key, _ in batches))
    if forget:
        pipe.ltrim(order_key, len(forget), -1)
        pipe.hdel(keys_key, *forget)
