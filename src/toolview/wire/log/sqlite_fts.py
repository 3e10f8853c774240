"""The SQLite log's full-text index (FTS5) over the redacted text of every thread.

Why: ``GET /api/search`` finds a word in every thread at once; a scan of every
record would be O(log). The index holds what a reader may see, never the
record: a call's arguments (JSON, every string redacted), a final result's
text or a refusal's reason, a message — neutralised and redacted
(``safety.clean_text``) — so a secret is never indexed, matched or shown.
Partial results are not indexed (their final result is). A field's first
``FTS_CHARS`` characters are indexed: redacted with a margin past the cut, so
no half of a secret straddling it is kept.

Filled after each append, not inside it: redacting what is indexed cost 5× the
append itself (69 MB of a 5,000-call session: 2.2 s to store, 9 s more to index),
and the append holds the log's one writer. So ``search_progress`` says, per
thread, the last seq indexed; the log indexes what lies past it in batches
(``pending_rows``, redacted with no lock held, then ``store_rows``, a short
transaction that checks the progress did not move meanwhile — another process
sharing the file may index too), started after each append and awaited by each
search, which therefore always sees every record appended before it. A log file
from before the index gets the tables on open and is indexed the same way, its
old records first (lazily: by the first append or search after the upgrade).
How a search reads the index is ``sqlite_query``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final, TypeAlias

import msgspec

from toolview.contract import Message, Observation, ToolCall, ToolRefused, ToolResult
from toolview.contract.observations import decode_observation
from toolview.safety import clean_text, redact_json

__all__ = [
    "BEHIND",
    "FTS_CHARS",
    "ONE_BEHIND",
    "SEARCH_SCHEMA",
    "Row",
    "pending_rows",
    "store_rows",
]

FTS_CHARS: Final = 256 * 1024
_MARGIN: Final = 8192  # render.clean's REDACTION_MARGIN: longer than any credential

SEARCH_SCHEMA: Final = """
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
    text, thread UNINDEXED, call UNINDEXED, field UNINDEXED, seq UNINDEXED
);
CREATE TABLE IF NOT EXISTS search_progress (
    thread TEXT PRIMARY KEY, seq INTEGER NOT NULL
) WITHOUT ROWID;
"""
BEHIND: Final = (
    "SELECT t.id, COALESCE(p.seq, 0) FROM threads t LEFT JOIN search_progress p"
    " ON p.thread = t.id WHERE t.last_seq > COALESCE(p.seq, 0) LIMIT 64"
)
"""The threads with records not indexed yet, and the last seq indexed of each."""
ONE_BEHIND: Final = (
    "SELECT t.id, COALESCE(p.seq, 0) FROM threads t LEFT JOIN search_progress p"
    " ON p.thread = t.id WHERE t.id = ? AND t.last_seq > COALESCE(p.seq, 0)"
)
"""``BEHIND`` for one thread, by its key: what an append leaves to index (no scan)."""
Row: TypeAlias = tuple[str, str, str | None, str, int]


def _fields(observation: Observation) -> list[tuple[str | None, str, str]]:
    """``(call id, field, text to index)`` of one observation (none for a partial)."""
    if isinstance(observation, ToolCall):
        args = msgspec.json.encode(redact_json(observation.args)).decode()
        return [(observation.tool_call_id, "args", args[:FTS_CHARS])]
    if isinstance(observation, ToolResult):
        if not observation.complete:
            return []
        return [(observation.tool_call_id, "output", _clean(observation.text))]
    if isinstance(observation, ToolRefused):
        return [(observation.tool_call_id, "output", _clean(observation.reason))]
    if isinstance(observation, Message):
        return [(None, "message", _clean(observation.text))]
    return []


def _clean(text: str) -> str:
    return clean_text(text[: FTS_CHARS + _MARGIN])[:FTS_CHARS]


def pending_rows(thread_id: str, records: Sequence[tuple[int, bytes]]) -> list[Row]:
    """The index rows of ``records`` (stored records of one thread): redacted, no lock held."""
    rows: list[Row] = []
    for seq, body in records:
        try:
            observation = decode_observation(body)
        except (msgspec.DecodeError, ValueError):
            continue  # a partial's delta record: its final result is indexed
        for call_id, field, text in _fields(observation):
            if text:
                rows.append((text, thread_id, call_id, field, seq))
    return rows


def store_rows(
    db: sqlite3.Connection, thread_id: str, done: int, upto: int, rows: list[Row]
) -> bool:
    """Index ``rows`` (records ``done < seq ≤ upto``), unless someone indexed them meanwhile."""
    db.execute("BEGIN IMMEDIATE")
    try:
        row = db.execute(
            "SELECT seq FROM search_progress WHERE thread = ?", (thread_id,)
        ).fetchone()
        if (row[0] if row else 0) != done:
            db.execute("ROLLBACK")
            return False
        sql = "INSERT INTO search (text, thread, call, field, seq) VALUES (?, ?, ?, ?, ?)"
        db.executemany(sql, rows)
        sql = "INSERT OR REPLACE INTO search_progress (thread, seq) VALUES (?, ?)"
        db.execute(sql, (thread_id, upto))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return True
