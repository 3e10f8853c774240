"""The SQLite log's full-text index (FTS5) over the redacted text of every thread.

Why: ``GET /api/search`` finds a word in every thread at once; a scan of every
record would be O(log). The index holds what a reader may see, never the
record: a call's arguments (JSON, every string redacted), a final result's
text or a refusal's reason, a message — neutralised and redacted
(``safety.clean_text``) — so a secret is never indexed, matched or shown.
Partial results are not indexed (their final result is). A field's first
``FTS_CHARS`` characters are indexed: redacted with a margin past the cut, so
no half of a secret straddling it is kept.

Filled on append, in the append's own transaction (``index_batch``), so the
index never disagrees with the records. A log file from before the index has
its old records indexed lazily: when the table is created on open, each
thread's last seq goes into ``search_backlog``, and the first search (on
this or any process) indexes those records before it answers (``backfill``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final

import msgspec

from toolview.contract import Message, Observation, ToolCall, ToolRefused, ToolResult
from toolview.contract.observations import decode_observation
from toolview.safety import clean_text, redact_json
from toolview.wire.log import SearchHit

__all__ = [
    "FTS_CHARS",
    "backfill",
    "create_index",
    "fts_query",
    "index_batch",
    "search_index",
]

FTS_CHARS: Final = 256 * 1024
_MARGIN: Final = 8192  # render.clean's REDACTION_MARGIN: longer than any credential
_OPEN, _CLOSE = "\x01", "\x02"  # cleaned text never holds these: clean_text shows controls
_BACKFILL_BATCH: Final = 500

_SCHEMA: Final = """
CREATE VIRTUAL TABLE search USING fts5(
    text, thread UNINDEXED, call UNINDEXED, field UNINDEXED, seq UNINDEXED
);
CREATE TABLE IF NOT EXISTS search_backlog (
    thread TEXT PRIMARY KEY, done INTEGER NOT NULL, upto INTEGER NOT NULL
) WITHOUT ROWID;
"""


def create_index(db: sqlite3.Connection) -> None:
    """The index's tables, once; an existing log's records go into the backlog."""
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'search'").fetchone()
    if exists:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'search'").fetchone():
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)  # not executescript: it would commit first
            db.execute(
                "INSERT OR IGNORE INTO search_backlog (thread, done, upto)"
                " SELECT id, 0, last_seq FROM threads WHERE last_seq > 0"
            )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


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


def index_batch(
    db: sqlite3.Connection, thread_id: str, observations: Sequence[Observation], seqs: list[int]
) -> None:
    """Index a batch just stored (inside the append's transaction)."""
    rows = [
        (text, thread_id, call_id, field, seq)
        for observation, seq in zip(observations, seqs, strict=True)
        for call_id, field, text in _fields(observation)
        if text
    ]
    if rows:
        sql = "INSERT INTO search (text, thread, call, field, seq) VALUES (?, ?, ?, ?, ?)"
        db.executemany(sql, rows)


def backfill(db: sqlite3.Connection) -> None:
    """Index the records the index was created after (see the module), a batch a transaction."""
    while True:
        db.execute("BEGIN IMMEDIATE")
        try:
            more = _backfill_step(db)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if not more:
            return


def _backfill_step(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT thread, done, upto FROM search_backlog LIMIT 1").fetchone()
    if row is None:
        return False
    thread, done, upto = row
    sql = (
        "SELECT seq, body FROM records WHERE thread = ? AND seq > ? AND seq <= ?"
        " ORDER BY seq LIMIT ?"
    )
    records = db.execute(sql, (thread, done, upto, _BACKFILL_BATCH)).fetchall()
    observations, seqs = [], []
    for seq, body in records:
        try:
            observations.append(decode_observation(bytes(body)))
            seqs.append(seq)
        except (msgspec.DecodeError, ValueError):
            continue  # a partial's delta record: its final result is indexed
    index_batch(db, thread, observations, seqs)
    if len(records) < _BACKFILL_BATCH:
        db.execute("DELETE FROM search_backlog WHERE thread = ?", (thread,))
    else:
        db.execute("UPDATE search_backlog SET done = ? WHERE thread = ?", (records[-1][0], thread))
    return True


def fts_query(text: str) -> str:
    """The reader's words as an FTS5 query: each a quoted string, all of them required.

    Nothing the reader types is FTS5 syntax (no column filter, no operator).
    """
    words = text.split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words)


def search_index(db: sqlite3.Connection, query: str, limit: int) -> list[SearchHit]:
    """The best ``limit`` matches of ``query`` (``fts_query``'s words), by rank."""
    match = fts_query(query)
    if not match:
        return []
    sql = (
        "SELECT thread, call, field, seq, snippet(search, 0, ?, ?, '…', 16) FROM search"
        " WHERE search MATCH ? ORDER BY rank LIMIT ?"
    )
    rows = db.execute(sql, (_OPEN, _CLOSE, match, limit)).fetchall()
    return [_hit(*row) for row in rows]


def _hit(thread: str, call: str | None, field: str, seq: int, marked: str) -> SearchHit:
    start = marked.find(_OPEN)
    end = marked.find(_CLOSE)
    plain = marked.replace(_OPEN, "").replace(_CLOSE, "")
    if start < 0 or end < start:
        return SearchHit(thread, call, field, seq, plain, 0, 0)
    return SearchHit(thread, call, field, seq, plain, start, end - 1)
