"""The SQLite log's idempotency keys: one table, written inside the append's transaction.

Why apart: the rule (``wire.idempotency``) is the log's business, but its SQL
is not the records' — a key row is numbered per thread so the oldest can be
forgotten by primary key, never by a scan.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Final

from toolview.wire.idempotency import Remembered

__all__ = ["KEYS_SCHEMA", "known_keys", "remember_keys"]

_CHUNK: Final = 500  # keys looked up per statement: well under SQLite's bound on parameters

KEYS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS batch_keys (
    thread TEXT NOT NULL, n INTEGER NOT NULL, key TEXT NOT NULL, digest BLOB NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (thread, n)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS batch_keys_by_key ON batch_keys (thread, key);
"""


def known_keys(
    db: sqlite3.Connection, thread_id: str, keys: Iterable[str]
) -> dict[str, Remembered]:
    """What the thread remembers of each of ``keys`` that it knows (by the unique index)."""
    wanted = sorted(set(keys))
    known: dict[str, Remembered] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        sql = (
            "SELECT key, first_seq, last_seq, digest FROM batch_keys"
            f" WHERE thread = ? AND key IN ({', '.join('?' * len(chunk))})"
        )
        for key, first, last, digest in db.execute(sql, (thread_id, *chunk)):
            known[key] = Remembered(first, last, bytes(digest))
    return known


def remember_keys(
    db: sqlite3.Connection,
    thread_id: str,
    batches: Sequence[tuple[str, Remembered]],
    keep: int,
) -> None:
    """Keep the keys, numbered after the thread's last, and forget all but the last ``keep``."""
    if not batches:
        return
    sql = "SELECT MAX(n) FROM batch_keys WHERE thread = ?"
    n = db.execute(sql, (thread_id,)).fetchone()[0] or 0
    db.executemany(
        "INSERT INTO batch_keys (thread, n, key, digest, first_seq, last_seq)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (thread_id, n + offset, key, batch.digest, batch.first, batch.last)
            for offset, (key, batch) in enumerate(batches, start=1)
        ],
    )
    last = n + len(batches)
    db.execute("DELETE FROM batch_keys WHERE thread = ? AND n <= ?", (thread_id, last - keep))
