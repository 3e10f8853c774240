"""The word index the Redis log's search keeps: the words required, its memory budget."""

from __future__ import annotations

import time

from toolview.wire.log.sqlite_fts import Row
from toolview.wire.log.sqlite_query import fts_terms
from toolview.wire.log.word_index import POSTING, WordIndex


def rows(n: int, text: str) -> list[Row]:
    return [(text, f"t{i}", None, "message", i + 1) for i in range(n)]


def test_the_index_forgets_its_oldest_rows_past_its_budget() -> None:
    index = WordIndex(max_bytes=5 * (20 + 2 * POSTING))
    index.add(rows(10, "zebra " + "x" * 14))  # 20 characters and 2 words each: the first 5 go
    assert len(index) == 5
    hits, late = index.search(fts_terms("zebra"), 100, time.monotonic() + 10)
    assert sorted(h.thread_id for h in hits) == [f"t{i}" for i in range(5, 10)] and not late


def test_every_word_is_required_and_punctuation_splits_words_as_fts5_does() -> None:
    index = WordIndex()
    index.add([("run make.build now", "a", "c", "args", 1), ("make tea", "b", None, "message", 2)])
    deadline = time.monotonic() + 10
    assert [h.thread_id for h in index.search(fts_terms("make.build"), 9, deadline)[0]] == ["a"]
    assert [h.thread_id for h in index.search(fts_terms("MAKE tea"), 9, deadline)[0]] == ["b"]
    assert index.search(fts_terms('make" OR "tea'), 9, deadline)[0] == []  # no syntax: "or"


def test_a_word_of_many_words_costs_one_scan_per_hit_and_finds_its_snippet() -> None:
    """A hostile word (500 tokens in 1,000 characters) over big rows: bounded, still right."""
    index = WordIndex()
    big = "x " * 100_000 + "needle " + "a.b " * 10
    index.add([(big, f"t{i}", None, "message", 1) for i in range(50)])
    hostile = ".".join(["a", "b"] * 250)[:999] + " needle"
    hits, late = index.search(fts_terms(hostile), 50, time.monotonic() + 60)
    assert len(hits) == 50 and not late
    assert hits[0].snippet[hits[0].start : hits[0].end] == "needle"
