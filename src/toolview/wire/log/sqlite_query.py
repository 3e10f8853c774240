"""One cross-thread search on the SQLite log's index: a bounded query, stopped at a deadline.

Why bounded: FTS5 ranks (BM25) every matching row against every phrase of the
query, and that grows with the square of the phrases: 500 short words over
60,000 indexed messages ran 43-48 s (100 words 1.7 s, 250 words 7-10 s), under
the lock every other read of the log took. So the reader's words are cleaned
as the indexed text was, de-duplicated (case-insensitively: the index folds
case) and capped at ``MAX_TERMS`` distinct words; the answer says how many were
dropped. And a search runs on a connection of its own (``sqlite_readers``)
with SQLite's progress handler watching a deadline: past it the query is
interrupted and the best of the rows ranked so far are the answer, with
``stopped: "time"``.

Two steps, so an interrupted search still has something to show: the rank of
every match, kept best-``limit`` as the rows come (``ORDER BY rank`` would rank
them all before the first row, and an interruption would leave nothing); then
a snippet for each kept row, by its rowid.
"""

from __future__ import annotations

import heapq
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from toolview.safety import clean_text
from toolview.wire.log import SearchHit

__all__ = ["MAX_TERMS", "SEARCH_SECONDS", "Terms", "fts_terms", "run_search"]

MAX_TERMS: Final = 32  # distinct words searched; BM25's cost grows with their square
SEARCH_SECONDS: Final = 2.0  # a search's whole time: waiting for the index, ranking, snippets
RANK_SHARE: Final = 0.75  # of the time left when ranking starts; snippets get the rest
STEPS: Final = 1000  # SQLite VM instructions between two looks at the clock
_OPEN, _CLOSE = "\x01", "\x02"  # cleaned text never holds these: clean_text shows controls
_RANKED: Final = "SELECT rowid, bm25(search) FROM search WHERE search MATCH ?"
_SNIPPET: Final = (
    "SELECT thread, call, field, seq, snippet(search, 0, ?, ?, '…', 16) FROM search"
    " WHERE search MATCH ? AND rowid = ?"
)


@dataclass(frozen=True)
class Terms:
    """The reader's words as searched: ``words`` (distinct, capped), ``dropped`` past the cap."""

    words: list[str]
    dropped: int

    @property
    def match(self) -> str:
        """An FTS5 query: each word a quoted string, all of them required (no FTS5 syntax)."""
        return " ".join('"' + word.replace('"', '""') + '"' for word in self.words)


def fts_terms(text: str) -> Terms:
    """``text``'s distinct words, the first ``MAX_TERMS`` of them.

    The text is cleaned as the indexed text was (a control character is its
    visible stand-in there; a raw NUL ended FTS5's string: "unterminated
    string", a 503). Words differing only in case are one word: the index folds case.
    """
    distinct: dict[str, str] = {}
    for word in clean_text(text).split():
        distinct.setdefault(word.casefold(), word)
    words = list(distinct.values())
    return Terms(words[:MAX_TERMS], max(len(words) - MAX_TERMS, 0))


def run_search(
    db: sqlite3.Connection, terms: Terms, limit: int, deadline: float
) -> tuple[list[SearchHit], bool]:
    """The best ``limit`` matches of ``terms`` by rank; True: the deadline cut them short."""
    now = time.monotonic()
    if now >= deadline:  # its turn came too late (searches queue for a connection)
        return [], True
    best, late = _best(db, terms.match, limit, now + (deadline - now) * RANK_SHARE)
    hits, cut = _snippets(db, terms.match, best, deadline)
    return hits, late or cut


def _best(db: sqlite3.Connection, match: str, limit: int, until: float) -> tuple[list[int], bool]:
    """The rowids of the best ``limit`` matches ranked before ``until``, best first."""
    kept: list[tuple[float, int]] = []  # (-score, rowid): the worst kept is on top
    late = False
    with _watching(db, until):
        try:
            for rowid, score in db.execute(_RANKED, (match,)):
                if len(kept) < limit:
                    heapq.heappush(kept, (-score, rowid))
                elif -score > kept[0][0]:  # BM25: lower is better
                    heapq.heapreplace(kept, (-score, rowid))
        except sqlite3.OperationalError as exc:
            late = _interrupted(exc)
    return [rowid for _, rowid in sorted(kept, reverse=True)], late


def _snippets(
    db: sqlite3.Connection, match: str, rowids: list[int], until: float
) -> tuple[list[SearchHit], bool]:
    """A hit with its snippet for each of ``rowids``, in order, as many as ``until`` allows."""
    hits: list[SearchHit] = []
    with _watching(db, until):
        try:
            for rowid in rowids:
                row = db.execute(_SNIPPET, (_OPEN, _CLOSE, match, rowid)).fetchone()
                if row is not None:
                    hits.append(_hit(*row))
        except sqlite3.OperationalError as exc:
            return hits, _interrupted(exc)
    return hits, False


@contextmanager
def _watching(db: sqlite3.Connection, until: float) -> Iterator[None]:
    """SQLite interrupts ``db``'s statements once ``until`` (monotonic) has passed."""
    db.set_progress_handler(lambda: time.monotonic() > until, STEPS)
    try:
        yield
    finally:
        db.set_progress_handler(None, 0)


def _interrupted(exc: sqlite3.OperationalError) -> bool:
    """True if the progress handler stopped the statement; any other error is raised again."""
    if getattr(exc, "sqlite_errorcode", None) != sqlite3.SQLITE_INTERRUPT:
        raise exc
    return True


def _hit(thread: str, call: str | None, field: str, seq: int, marked: str) -> SearchHit:
    start = marked.find(_OPEN)
    end = marked.find(_CLOSE)
    plain = marked.replace(_OPEN, "").replace(_CLOSE, "")
    if start < 0 or end < start:
        return SearchHit(thread, call, field, seq, plain, 0, 0)
    return SearchHit(thread, call, field, seq, plain, start, end - 1)
