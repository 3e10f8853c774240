"""Idempotency keys: the rule itself, and the log keeping it on both backends.

The log tests run against a real SQLite file and a real redis-server (the
``open_log`` fixture); two clients on one store stand for two server processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from toolview_servers import run_async

from toolview.contract import Message, Observation, ToolCall
from toolview.wire.idempotency import KeyConflict, Remembered, batch_digest, is_valid_key, new_key
from toolview.wire.log import ObservationLog
from toolview.wire.log.sqlite import SQLiteLog

LogOpener = Callable[[], ObservationLog]  # the open_log fixture's type

BATCH: list[Observation] = [
    ToolCall("c1", "shell", {"command": "make"}),
    Message("assistant", "ok"),
]


def test_keys_are_fresh_and_well_formed() -> None:
    keys = {new_key() for _ in range(100)}
    assert len(keys) == 100 and all(is_valid_key(k) for k in keys)


@pytest.mark.parametrize("key", ["", " ", "a b", "x" * 129, "ключ", "a\tb", "a\x7f"])
def test_a_malformed_key_is_not_valid(key: str) -> None:
    assert not is_valid_key(key)


def test_the_digest_is_of_the_observations_not_their_spelling() -> None:
    assert batch_digest(BATCH) == batch_digest(list(BATCH))
    assert batch_digest(BATCH) != batch_digest(BATCH[:1])
    remembered = Remembered(4, 5, batch_digest(BATCH))
    assert Remembered.decode(remembered.encode()) == remembered
    assert remembered.replay("k", batch_digest(BATCH)).seqs == [4, 5]
    with pytest.raises(KeyConflict, match="different batch"):
        remembered.replay("k", batch_digest(BATCH[:1]))


def test_the_same_key_twice_stores_once_and_answers_the_same_seqs(open_log: LogOpener) -> None:
    run_async(lambda: _check_same_key_twice(open_log))


async def _check_same_key_twice(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    await log.append("t", [Message("user", "before")])
    first = await log.append_once("t", BATCH, "key-1")
    assert first.seqs == [2, 3] and not first.replayed
    again = await log.append_once("t", BATCH, "key-1")
    assert again.seqs == [2, 3] and again.replayed
    assert [seq for seq, _ in await log.read("t", 0)] == [1, 2, 3]
    info = await log.thread("t")
    assert info is not None and info.last_seq == 3
    assert (await log.append_once("t", BATCH, "key-2")).seqs == [4, 5]  # a new key: new seqs
    await log.aclose()
    reopened = open_log()  # the key is durable with the batch
    assert (await reopened.append_once("t", BATCH, "key-1")).seqs == [2, 3]
    await reopened.aclose()


def test_the_same_key_with_another_batch_is_refused_and_stores_nothing(
    open_log: LogOpener,
) -> None:
    run_async(lambda: _check_same_key_other_batch(open_log))


async def _check_same_key_other_batch(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    await log.append_once("t", BATCH, "k")
    with pytest.raises(KeyConflict, match="different batch"):
        await log.append_once("t", [Message("user", "something else")], "k")
    assert [seq for seq, _ in await log.read("t", 0)] == [1, 2]
    assert (await log.append_once("t", BATCH, "k")).seqs == [1, 2]  # the original still holds
    await log.aclose()


def test_keys_are_per_thread(open_log: LogOpener) -> None:
    run_async(lambda: _check_keys_are_per_thread(open_log))


async def _check_keys_are_per_thread(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("a")
    await log.create_thread("b")
    await log.append("b", [Message("user", "b's own")])
    assert (await log.append_once("a", BATCH, "shared")).seqs == [1, 2]
    on_b = await log.append_once("b", [Message("user", "other")], "shared")
    assert on_b.seqs == [2] and not on_b.replayed
    await log.aclose()


def test_two_clients_given_one_key_at_once_store_it_once(open_log: LogOpener) -> None:
    run_async(lambda: _check_two_clients_one_key(open_log))


async def _check_two_clients_one_key(open_log: LogOpener) -> None:
    first, second = open_log(), open_log()
    await first.create_thread("t")
    for n in range(10):
        a, b = await asyncio.gather(
            first.append_once("t", [Message("user", f"{n}")], f"k{n}"),
            second.append_once("t", [Message("user", f"{n}")], f"k{n}"),
        )
        assert a.seqs == b.seqs == [n + 1] and sorted([a.replayed, b.replayed]) == [False, True]
    assert len(await first.read("t", 0)) == 10
    await first.aclose()
    await second.aclose()


def test_old_keys_are_forgotten_beyond_the_bound(open_log: LogOpener) -> None:
    run_async(lambda: _check_old_keys_forgotten(open_log))


async def _check_old_keys_forgotten(open_log: LogOpener) -> None:
    log = open_log()
    log.keep_keys = 3  # type: ignore[attr-defined]  # both backends take it; 10,000 by default
    await log.create_thread("t")
    for n in range(5):
        await log.append_once("t", [Message("user", str(n))], f"k{n}")
    for n in (2, 3, 4):  # the last three are remembered
        assert (await log.append_once("t", [Message("user", str(n))], f"k{n}")).replayed
    forgotten = await log.append_once("t", [Message("user", "0")], "k0")
    assert not forgotten.replayed and forgotten.seqs == [6]  # documented: stored again
    await log.aclose()


def test_sqlite_keys_are_found_and_forgotten_by_index_never_a_scan(tmp_path: Path) -> None:
    log = SQLiteLog(tmp_path / "log.db")
    statements = {  # as sqlite_keys sends them (known_keys: several keys at once)
        "SELECT key, first_seq, last_seq, digest FROM batch_keys"
        " WHERE thread = ? AND key IN (?, ?, ?)": ("t", "k1", "k2", "k3"),
        "SELECT MAX(n) FROM batch_keys WHERE thread = ?": ("t",),
        "DELETE FROM batch_keys WHERE thread = ? AND n <= ?": ("t", 3),
    }
    for sql, args in statements.items():
        plan = log._db.execute("EXPLAIN QUERY PLAN " + sql, args).fetchall()
        details = " ".join(str(row[-1]) for row in plan)
        assert "SEARCH batch_keys USING" in details and "SCAN" not in details, (sql, details)
    run_async(log.aclose)
