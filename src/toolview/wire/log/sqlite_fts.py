"""The SQLite log's full-text index (FTS5) over the redacted text of every thread.

Why: ``GET /api/search`` finds a word in every thread at once; a scan of every
record would be O(log). The index holds what a reader may see, never the
record, and exactly what the thread search sees (``searchable``, the one maker
of a call's searchable text: the same fields, redaction and cut), so one word
finds the same calls on both routes. A running call's partial output is not
indexed (its final result is); an aborted one's is, at the run's end: the text
the log keeps of each call still open there (``open_calls``).

Filled after each append's commit, not inside its transaction: redacting what
is indexed cost 5× the append itself (69 MB of a 5,000-call session: 2.2 s to
store, 9 s more to index), and the transaction holds the log's one writer. The
append answers once its records are indexed (``sqlite_search``). So ``search_progress`` says, per
thread, the last seq indexed; the log indexes what lies past it in batches
(``pending_rows``, redacted with no lock held, then ``store_rows``, a short
transaction that checks the progress did not move meanwhile — another process
sharing the file may index too), run by each append before it answers and by each
search first, which therefore always sees every record appended before it. A log
file from before the index gets the tables on open and is indexed the same way, its
old records first (lazily: by the first append or search after the upgrade).
How a search reads the index is ``sqlite_query``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias

import msgspec

from toolview.contract import RunEnded
from toolview.contract.observations import decode_observation
from toolview.wire.feed import OpenCall
from toolview.wire.log.searchable import Searchable, running_text, searchable

__all__ = [
    "BEHIND",
    "ONE_BEHIND",
    "OPEN_CALLS",
    "SEARCH_SCHEMA",
    "Mark",
    "Opened",
    "Pending",
    "Row",
    "pending_rows",
    "store_rows",
]

SEARCH_SCHEMA: Final = """
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
    text, thread UNINDEXED, call UNINDEXED, field UNINDEXED, seq UNINDEXED
);
CREATE TABLE IF NOT EXISTS search_progress (
    thread TEXT PRIMARY KEY, seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_aborted (
    thread TEXT NOT NULL, call TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (thread, call)
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
Mark: TypeAlias = tuple[str, int]  # an aborted call indexed: its id, the last seq of its text
OPEN_CALLS: Final = (
    "SELECT o.call_id, o.state, a.seq FROM open_calls o LEFT JOIN search_aborted a"
    " ON a.thread = o.thread AND a.call = o.call_id WHERE o.thread = ?"
)
"""A thread's open calls (partial output, no final result) and the seq each was indexed at."""
Pending: TypeAlias = tuple[list[Row], list[Mark]]
Opened: TypeAlias = Mapping[str, tuple[OpenCall, int | None]]


def _aborted(seq: int, open_calls: Opened, marks: list[Mark]) -> list[Searchable]:
    """The output of each call still open at a run's end at ``seq`` (its text as kept now).

    Only a text not indexed yet (``search_aborted``): a call aborted long ago,
    open for ever, is not indexed again at every later run's end. A call whose
    output began after ``seq`` is not this run's: it is left to a later end.
    """
    done = dict(marks)
    fields: list[Searchable] = []
    for call_id, (call, indexed) in open_calls.items():
        if call.anchor <= seq and done.get(call_id, indexed) != call.last_seq:
            fields.append((call_id, "output", running_text(call.text)))
            marks.append((call_id, call.last_seq))
    return fields


def pending_rows(
    thread_id: str, records: Sequence[tuple[int, bytes]], open_calls: Opened
) -> Pending:
    """The index rows of ``records`` (stored records of one thread), redacted, no lock held.

    ``open_calls``: the thread's open calls as ``OPEN_CALLS`` reads them, for a
    run's end; the marks say which of them are indexed (for ``store_rows``).
    """
    rows: list[Row] = []
    marks: list[Mark] = []
    for seq, body in records:
        try:
            observation = decode_observation(body)
        except (msgspec.DecodeError, ValueError):
            continue  # a partial's delta record: its final result (or its run's end) is indexed
        fields = searchable(observation)
        if isinstance(observation, RunEnded):
            fields = _aborted(seq, open_calls, marks)
        for call_id, field, text in fields:
            if text:
                rows.append((text, thread_id, call_id, field, seq))
    return rows, marks


def store_rows(
    db: sqlite3.Connection, thread_id: str, done: int, upto: int, pending: Pending
) -> bool:
    """Index ``pending`` (records ``done < seq ≤ upto``), unless someone indexed them meanwhile."""
    db.execute("BEGIN IMMEDIATE")
    try:
        row = db.execute(
            "SELECT seq FROM search_progress WHERE thread = ?", (thread_id,)
        ).fetchone()
        if (row[0] if row else 0) != done:
            db.execute("ROLLBACK")
            return False
        sql = "INSERT INTO search (text, thread, call, field, seq) VALUES (?, ?, ?, ?, ?)"
        db.executemany(sql, pending[0])
        sql = "INSERT OR REPLACE INTO search_aborted (thread, call, seq) VALUES (?, ?, ?)"
        db.executemany(sql, [(thread_id, call, seq) for call, seq in pending[1]])
        sql = "INSERT OR REPLACE INTO search_progress (thread, seq) VALUES (?, ?)"
        db.execute(sql, (thread_id, upto))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return True
