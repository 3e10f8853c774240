"""The index's cards kept in the SQLite log, so a restarted server need not read every record.

Why in the log: the cards are a fold of the log's own records (the index's
``server.page.index.card_shelf`` decides what a card is); kept beside them,
they share the file's place, modes and life — a log copied or removed takes
its cards along, and no second file can be stale against it. One row per
thread, with the seq and creation time it was made at: a row behind its
thread is only a place to start again from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import suppress
from typing import Any, Final

__all__ = ["CARDS_SCHEMA", "KEPT_CARDS", "KeptCard", "keep_cards", "well_typed"]

CARDS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS index_cards (
    thread TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seq INTEGER NOT NULL,
    card BLOB NOT NULL
) WITHOUT ROWID;
"""
KEPT_CARDS: Final = "SELECT thread, created, seq, card FROM index_cards"
_KEEP: Final = "INSERT OR REPLACE INTO index_cards (thread, created, seq, card) VALUES (?,?,?,?)"

KeptCard = tuple[str, float, int, bytes]  # thread, its creation, the seq made at, the card


def keep_cards(db: sqlite3.Connection, cards: Sequence[KeptCard]) -> bool:
    """Store ``cards`` in one transaction (one sync for 10,000, not one each); whether it did.

    Best effort: a file that cannot be written now (read-only, locked past the
    timeout) keeps none, and the listing goes on — kept cards are a head start.
    """
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:
        return False
    try:
        db.executemany(_KEEP, cards)
        db.execute("COMMIT")
    except sqlite3.Error:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        return False
    return True


def well_typed(rows: Sequence[Sequence[Any]]) -> list[KeptCard]:
    """The rows whose columns have the types a card's row has (SQLite keeps any type in any
    column: a number where the card should be is not a card), the others left out."""
    return [
        (thread, float(created), seq, card)
        for thread, created, seq, card in rows
        if isinstance(thread, str)
        and isinstance(created, float | int)
        and isinstance(seq, int)
        and isinstance(card, bytes)
    ]
