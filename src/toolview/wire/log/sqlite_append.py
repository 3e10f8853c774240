"""The SQLite log's tables, and the one transaction that numbers and writes a batch.

Why apart from ``SQLiteLog``: this is the log's durability and numbering —
plain synchronous SQL on the write connection, run whole inside ``BEGIN
IMMEDIATE`` (so two processes sharing the file never reuse or skip a seq) —
while ``sqlite`` is the asynchronous service around it (worker threads,
locks, waiting). The idempotency keys' SQL is ``sqlite_keys``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final, TypeVar

from toolview.contract import Observation
from toolview.wire.feed import (
    OpenCall,
    decode_open_call,
    encode_batch,
    encode_open_call,
    record_call_id,
)
from toolview.wire.idempotency import Appended, KeyConflict, Keyed, Outcome, plan_keyed
from toolview.wire.log import UnknownThread
from toolview.wire.log.sqlite_keys import known_keys, remember_keys
from toolview.wire.log.sqlite_sources import move_source
from toolview.wire.sources import SourceMove

__all__ = ["RECORDS_SCHEMA", "append_batch", "append_each"]

T = TypeVar("T")

RECORDS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY, created REAL NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    thread TEXT NOT NULL, seq INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (thread, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS open_calls (
    thread TEXT NOT NULL, call_id TEXT NOT NULL, state BLOB NOT NULL,
    PRIMARY KEY (thread, call_id)
) WITHOUT ROWID;
"""


def append_batch(
    db: sqlite3.Connection,
    thread_id: str,
    observations: Sequence[Observation],
    key: str | None,
    keep_keys: int,
    move: SourceMove | None = None,
) -> Appended:
    """Number and store ``observations`` in one transaction (``key``: at most once).

    A key the thread remembers answers its batch's seqs and writes nothing
    (``KeyConflict`` for a different batch); a ``move`` of a read position is
    written in the same transaction (``PositionMoved`` if it moved meanwhile);
    anything raised rolls back.
    """
    if key is None:
        return _transaction(db, thread_id, move, partial(_unkeyed, db, thread_id, observations))
    outcome = append_each(db, thread_id, [(key, observations)], keep_keys, move)[0]
    if isinstance(outcome, KeyConflict):
        raise outcome  # nothing was written: the batch was its only one
    return outcome


def append_each(
    db: sqlite3.Connection,
    thread_id: str,
    batches: Sequence[Keyed],
    keep_keys: int,
    move: SourceMove | None = None,
) -> list[Outcome]:
    """Several keyed batches in one transaction, each stored at most once (``plan_keyed``)."""
    return _transaction(db, thread_id, move, partial(_keyed, db, thread_id, batches, keep_keys))


def _transaction(
    db: sqlite3.Connection,
    thread_id: str,
    move: SourceMove | None,
    write: Callable[[int], T],
) -> T:
    """``write(last_seq)`` inside ``BEGIN IMMEDIATE``, after the thread and ``move`` are checked."""
    db.execute("BEGIN IMMEDIATE")
    try:
        row = db.execute("SELECT last_seq FROM threads WHERE id = ?", (thread_id,)).fetchone()
        if row is None:
            raise UnknownThread(thread_id)
        if move is not None:
            move_source(db, move)
        done = write(row[0])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return done


def _unkeyed(
    db: sqlite3.Connection, thread_id: str, observations: Sequence[Observation], last: int
) -> Appended:
    return Appended(_store(db, thread_id, observations, last))


def _keyed(
    db: sqlite3.Connection,
    thread_id: str,
    batches: Sequence[Keyed],
    keep_keys: int,
    last: int,
) -> list[Outcome]:
    known = known_keys(db, thread_id, (key for key, _ in batches))
    plan = plan_keyed(batches, known, last)
    if plan.observations:
        _store(db, thread_id, plan.observations, last)
    remember_keys(db, thread_id, plan.remember, keep_keys)
    return plan.outcomes


def _store(
    db: sqlite3.Connection, thread_id: str, observations: Sequence[Observation], last: int
) -> list[int]:
    """Number and write the batch (inside the caller's transaction)."""
    batch = encode_batch(observations, last, _load_calls(db, thread_id, observations))
    db.executemany(
        "INSERT INTO records (thread, seq, body) VALUES (?, ?, ?)",
        [(thread_id, seq, body) for seq, body in batch.records],
    )
    for call_id, call in batch.calls.items():
        _store_call(db, thread_id, call_id, call)
    sql = "UPDATE threads SET last_seq = ? WHERE id = ?"
    db.execute(sql, (last + len(observations), thread_id))
    return [seq for seq, _ in batch.records]


def _load_calls(
    db: sqlite3.Connection, thread_id: str, observations: Sequence[Observation]
) -> dict[str, OpenCall]:
    wanted = {cid for cid in map(record_call_id, observations) if cid is not None}
    calls: dict[str, OpenCall] = {}
    sql = "SELECT state FROM open_calls WHERE thread = ? AND call_id = ?"
    for call_id in wanted:
        row = db.execute(sql, (thread_id, call_id)).fetchone()
        if row is not None:
            calls[call_id] = decode_open_call(row[0])
    return calls


def _store_call(
    db: sqlite3.Connection, thread_id: str, call_id: str, call: OpenCall | None
) -> None:
    if call is None:
        sql = "DELETE FROM open_calls WHERE thread = ? AND call_id = ?"
        db.execute(sql, (thread_id, call_id))
        return
    sql = "INSERT OR REPLACE INTO open_calls (thread, call_id, state) VALUES (?, ?, ?)"
    db.execute(sql, (thread_id, call_id, encode_open_call(call)))
