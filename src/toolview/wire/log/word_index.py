"""An in-memory word index of the redacted text the SQLite log's FTS5 would hold.

Why: the Redis log has no full-text index (Redis 7 without its query engine
module), so each server process keeps one (``redis_search`` fills it from the
streams). It holds the rows ``sqlite_fts.pending_rows`` makes — the same
fields, redaction and cut as FTS5 and the thread search (``searchable``) —
and answers the same query (``sqlite_query.fts_terms``: one home for the
words, their de-duplication and cap) with the same ``SearchHit`` shape.

Words are FTS5's ``unicode61`` tokens as near as ``\\w+`` gets: runs of
letters and digits, case folded. A query word is its tokens, all required
(FTS5 reads ``"foo.bar"`` as the phrase ``foo bar``; here both words in one
field). Ranking: the more of the words a field holds, for its length, the
better (BM25's shape, not its numbers).

Bounded memory: a row costs its text and ``POSTING`` bytes a distinct word
(a set entry: measured, 10,000 sessions cost 4.1 GiB unbounded), at most
``MAX_BYTES`` in all; past it the oldest rows are forgotten (a postings
entry of a forgotten row is dropped when met) and a search misses them.
A search looks at the clock every ``STEPS`` rows and answers the best so far
at its deadline, as the SQLite path does.
"""

from __future__ import annotations

import heapq
import re
import time
from collections.abc import Iterable
from typing import Final

from toolview.wire.log import SearchHit
from toolview.wire.log.sqlite_fts import Row
from toolview.wire.log.sqlite_query import Terms

__all__ = ["MAX_BYTES", "POSTING", "STEPS", "WordIndex", "tokens"]

MAX_BYTES: Final = 1024 * 1024 * 1024  # what one process's index may cost; the oldest goes first
POSTING: Final = 64  # bytes a distinct word of a row costs (a set entry and its int)
STEPS: Final = 256  # rows scored between two looks at the clock
_SNIPPET_CHARS: Final = 80  # either side of the first match
_WORD: Final = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    """``text``'s words as indexed: runs of letters and digits, case folded."""
    return _WORD.findall(text.casefold())


class WordIndex:
    """Rows by id, and for each word the ids of the rows holding it."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self._rows: dict[int, tuple[Row, int]] = {}  # each row and what it costs
        self._words: dict[str, set[int]] = {}
        self._next = 0
        self._bytes = 0
        self._max_bytes = max_bytes

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, rows: Iterable[Row]) -> None:
        """Index ``rows`` (``pending_rows``' output); forget the oldest past ``MAX_BYTES``."""
        for row in rows:
            rowid, self._next = self._next, self._next + 1
            words = set(tokens(row[0]))
            cost = len(row[0]) + POSTING * len(words)
            self._rows[rowid] = (row, cost)
            self._bytes += cost
            for word in words:
                self._words.setdefault(word, set()).add(rowid)
        while self._bytes > self._max_bytes and self._rows:
            self._bytes -= self._rows.pop(next(iter(self._rows)))[1]

    def search(self, terms: Terms, limit: int, deadline: float) -> tuple[list[SearchHit], bool]:
        """The best ``limit`` rows holding every word of ``terms``; True: cut by the deadline."""
        needed = sorted({t for word in terms.words for t in tokens(word)})
        if not needed:
            return [], False
        postings = [self._words.get(word, set()) for word in needed]
        postings.sort(key=len)
        kept: list[tuple[float, int]] = []  # (score, rowid): the worst kept on top
        for count, rowid in enumerate(list(postings[0])):
            if count % STEPS == 0 and time.monotonic() > deadline:
                return self._hits(kept, needed), True
            kept_row = self._rows.get(rowid)
            if kept_row is None:
                postings[0].discard(rowid)  # forgotten past MAX_BYTES
                continue
            row = kept_row[0]
            if all(rowid in other for other in postings[1:]):
                score = len(needed) / (1.0 + len(row[0]) / 1000.0)
                if len(kept) < limit:
                    heapq.heappush(kept, (score, -rowid))
                elif score > kept[0][0]:
                    heapq.heapreplace(kept, (score, -rowid))
        return self._hits(kept, needed), False

    def _hits(self, kept: list[tuple[float, int]], needed: list[str]) -> list[SearchHit]:
        """The kept rows as hits, best first (a row forgotten meanwhile is left out)."""
        first = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, needed))})(?!\w)", re.I)
        found = (self._rows.get(-rowid) for _, rowid in sorted(kept, reverse=True))
        return [_hit(row[0], first) for row in found if row is not None]


def _hit(row: Row, words: re.Pattern[str]) -> SearchHit:
    """``row`` as a hit: a snippet around its first matched word (one scan), marked."""
    text, thread, call, field, seq = row
    first = words.search(text)
    if first is None:
        return SearchHit(thread, call, field, seq, text[: 2 * _SNIPPET_CHARS], 0, 0)
    low = max(first.start() - _SNIPPET_CHARS, 0)
    high = first.end() + _SNIPPET_CHARS
    head = "…" if low > 0 else ""
    snippet = head + text[low:high] + ("…" if high < len(text) else "")
    start = first.start() - low + len(head)
    return SearchHit(thread, call, field, seq, snippet, start, start + first.end() - first.start())
