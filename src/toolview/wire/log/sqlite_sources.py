"""The SQLite log's read positions: one table, written inside the append's transaction.

Why apart: ``wire.sources`` says why a position is stored with the
observations read from there; this is its SQL — a row per source, read and
replaced inside the ``BEGIN IMMEDIATE`` of ``sqlite_append``, so the
compare-and-set holds across processes sharing the file.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from toolview.wire.sources import SourceMove

__all__ = ["SOURCES_SCHEMA", "move_source", "stored_position"]

SOURCES_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS sources (
    name TEXT PRIMARY KEY, position BLOB NOT NULL
) WITHOUT ROWID;
"""


def stored_position(db: sqlite3.Connection, source: str) -> bytes | None:
    """The source's position, or ``None`` (by primary key)."""
    row = db.execute("SELECT position FROM sources WHERE name = ?", (source,)).fetchone()
    return None if row is None else bytes(row[0])


def move_source(db: sqlite3.Connection, move: SourceMove) -> None:
    """Check the move starts where the source is, and store where it ends (in a transaction)."""
    move.check(stored_position(db, move.source))
    sql = "INSERT OR REPLACE INTO sources (name, position) VALUES (?, ?)"
    db.execute(sql, (move.source, move.after))
