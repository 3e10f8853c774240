"""The SQLite log's idempotency keys: one table, written inside the append's transaction.

Why apart: the rule (``wire.idempotency``) is the log's business, but its SQL
is not the records' — a key row is numbered per thread so the oldest can be
forgotten by primary key, never by a scan.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from toolview.wire.idempotency import Remembered

__all__ = ["KEYS_SCHEMA", "known_key", "remember_key"]

KEYS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS batch_keys (
    thread TEXT NOT NULL, n INTEGER NOT NULL, key TEXT NOT NULL, digest BLOB NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (thread, n)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS batch_keys_by_key ON batch_keys (thread, key);
"""


def known_key(db: sqlite3.Connection, thread_id: str, key: str) -> Remembered | None:
    """What the thread remembers of ``key``, or ``None`` (by the unique index)."""
    sql = "SELECT first_seq, last_seq, digest FROM batch_keys WHERE thread = ? AND key = ?"
    row = db.execute(sql, (thread_id, key)).fetchone()
    return None if row is None else Remembered(row[0], row[1], bytes(row[2]))


def remember_key(
    db: sqlite3.Connection, thread_id: str, key: str, batch: Remembered, keep: int
) -> None:
    """Keep the key, numbered after the thread's last, and forget all but the last ``keep``."""
    sql = "SELECT MAX(n) FROM batch_keys WHERE thread = ?"
    n = (db.execute(sql, (thread_id,)).fetchone()[0] or 0) + 1
    db.execute(
        "INSERT INTO batch_keys (thread, n, key, digest, first_seq, last_seq)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (thread_id, n, key, batch.digest, batch.first, batch.last),
    )
    db.execute("DELETE FROM batch_keys WHERE thread = ? AND n <= ?", (thread_id, n - keep))
