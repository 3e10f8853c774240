"""The SQLite log's full-text index: filled on append, old records indexed lazily, redacted."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from log_fixtures import LogOpener

from toolview.contract import Message, ToolCall, ToolResult
from toolview.wire.log import ObservationLog, SearchableLog, sqlite_query
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog
from toolview.wire.log.sqlite_query import MAX_TERMS, fts_terms, run_search

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"


async def fill(log: ObservationLog, thread: str, word: str) -> None:
    await log.create_thread(thread)
    await log.append(
        thread,
        [
            Message("user", f"please look for {word}"),
            ToolCall("c1", "grep", {"pattern": word, "token": GITHUB}),
            ToolResult("c1", "grep", f"partial {word}", complete=False, is_error=False),
            ToolResult("c1", "grep", f"found {word} at line 3\n", complete=True, is_error=False),
        ],
    )


def test_appended_text_is_found_across_threads_ranked_with_snippets(open_log: LogOpener) -> None:
    """Both logs: SQLite's FTS5, and the Redis log's own index (``redis_search``)."""

    async def scenario() -> None:
        log = open_log()
        assert isinstance(log, SearchableLog)
        await fill(log, "a", "zebra")
        await fill(log, "b", "giraffe")
        hits = (await log.search("zebra", 10)).hits
        assert {h.thread_id for h in hits} == {"a"}
        assert sorted(h.field for h in hits) == ["args", "message", "output"]
        output = next(h for h in hits if h.field == "output")
        assert output.call_id == "c1"
        assert output.snippet == "found zebra at line 3\n"  # the final result, not the partial
        assert output.snippet[output.start : output.end] == "zebra"
        syntax = 'zebra" OR "giraffe'  # no FTS5 syntax gets through
        assert (await log.search(syntax, 10)).hits == []
        assert (await log.search("", 10)).hits == []
        # control characters (a NUL ended FTS5's string: "unterminated string", found by
        # schemathesis as a 503) are searched as the index holds them: cleaned
        for odd in ("zebra\x00", "\x00", "zebra \x01\x1b", '"\x00"'):
            assert {h.thread_id for h in (await log.search(odd, 10)).hits} <= {"a"}, odd
        await log.aclose()

    asyncio.run(scenario())


def test_a_secret_is_never_indexed(tmp_path: Path) -> None:
    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        await fill(log, "a", "zebra")
        assert (await log.search(GITHUB, 10)).hits == []
        assert [h.field for h in (await log.search("redacted", 10)).hits] == ["args"]
        await log.aclose()
        db = sqlite3.connect(tmp_path / "log.db")
        indexed = " ".join(row[0] for row in db.execute("SELECT text FROM search"))
        assert GITHUB[4:] not in indexed
        db.close()

    asyncio.run(scenario())


def test_a_log_from_before_the_index_is_indexed_after_an_append_or_a_search(tmp_path: Path) -> None:
    path = tmp_path / "log.db"

    async def scenario() -> None:
        log = SQLiteLog(path)
        for n in range(3):
            await fill(log, f"t{n}", "okapi")
        await log.aclose()
        db = sqlite3.connect(path)  # as a log file written before the index existed
        db.execute("DROP TABLE search")
        db.execute("DROP TABLE search_progress")
        db.commit()
        db.close()
        reopened = SQLiteLog(path)  # the tables again, empty: nothing is indexed on open
        indexed = sqlite3.connect(path).execute("SELECT count(*) FROM search").fetchone()
        assert indexed == (0,)
        await fill(reopened, "new", "okapi")
        hits = (await reopened.search("okapi", 100)).hits  # every thread, each record once
        assert sorted({h.thread_id for h in hits}) == ["new", "t0", "t1", "t2"]
        assert len(hits) == 4 * 3
        progress = sqlite3.connect(path).execute("SELECT * FROM search_progress ORDER BY 1")
        assert progress.fetchall() == [("new", 4), ("t0", 4), ("t1", 4), ("t2", 4)]
        await reopened.aclose()

    asyncio.run(scenario())


def test_both_logs_search() -> None:
    assert issubclass(SQLiteLog, SearchableLog)
    assert issubclass(RedisLog, SearchableLog)  # the index each server process keeps


def test_two_logs_on_one_file_index_each_record_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        one, two = SQLiteLog(tmp_path / "log.db"), SQLiteLog(tmp_path / "log.db")
        for n in range(4):
            await fill(one if n % 2 else two, f"t{n}", "tapir")
        first, second = await asyncio.gather(one.search("tapir", 100), two.search("tapir", 100))
        assert len(first.hits) == len(second.hits) == 4 * 3
        await one.aclose()
        await two.aclose()

    asyncio.run(scenario())


def test_words_are_searched_once_each_and_at_most_max_terms() -> None:
    terms = fts_terms("Zebra zebra ZEBRA lion\x00 " + " ".join(f"w{n}" for n in range(40)))
    assert terms.words[:2] == ["Zebra", "lion\u2400"] and len(terms.words) == MAX_TERMS
    assert terms.dropped == 2 + 40 - MAX_TERMS
    assert terms.match.count('"') == 2 * MAX_TERMS


class Ticks:
    """A clock that moves one second each time it is read: SQLite's progress handler reads it."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_an_interrupted_search_answers_the_best_of_what_it_ranked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        await log.create_thread("t")
        await log.append("t", [Message("user", f"zebra number {n}") for n in range(5000)])
        await log.search("zebra", 1)  # indexed
        await log.aclose()

    asyncio.run(scenario())
    db = sqlite3.connect(tmp_path / "log.db")
    terms = fts_terms("zebra number")
    every, late = run_search(db, terms, 10, deadline=time.monotonic() + 600)
    assert len(every) == 10 and not late
    monkeypatch.setattr(sqlite_query, "time", Ticks())
    some, late = run_search(db, terms, 10, deadline=40.0)  # a few hundred rows, then time
    assert late and 0 < len(some) <= 10
    assert all(hit.snippet[hit.start : hit.end] in ("zebra", "number") for hit in some)
    assert run_search(db, terms, 10, deadline=0.0) == ([], True)  # its turn came too late
    db.close()


def test_an_append_answers_with_its_records_indexed(tmp_path: Path) -> None:
    """Index while ingesting: the first search after a load finds nothing left to index."""
    path = tmp_path / "log.db"

    def committed(sql: str) -> list[tuple[object, ...]]:
        with sqlite3.connect(path) as db:  # another connection: what is committed
            return db.execute(sql).fetchall()

    async def scenario() -> None:
        log = SQLiteLog(path)
        await fill(log, "a", "zebra")
        assert committed("SELECT thread, seq FROM search_progress") == [("a", 4)]
        await log.append_each("a", [("k", [Message("user", "an okapi")])])
        assert committed("SELECT seq FROM search WHERE search MATCH 'okapi'") == [(5,)]
        await log.aclose()

    asyncio.run(scenario())
