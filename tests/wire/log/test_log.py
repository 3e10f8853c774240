"""The observation log, one suite over both backends (SQLite file, real redis-server)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from toolview_servers import run_async

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.wire.log import ObservationLog, Replay, UnknownThread
from toolview.wire.log.sqlite import SQLiteLog

LogOpener = Callable[[], ObservationLog]  # the open_log fixture's type


def partial(text: str, call: str = "c1") -> ToolResult:
    return ToolResult(
        tool_call_id=call, tool_name="shell", text=text, complete=False, is_error=False
    )


def final(text: str, call: str = "c1") -> ToolResult:
    return ToolResult(
        tool_call_id=call, tool_name="shell", text=text, complete=True, is_error=False
    )


def test_threads_are_created_once_and_listed(open_log: LogOpener) -> None:
    run_async(lambda: _check_threads_are_created_once_and_listed(open_log))


async def _check_threads_are_created_once_and_listed(open_log: LogOpener) -> None:
    log = open_log()
    assert await log.create_thread("a") is True
    assert await log.create_thread("a") is False
    await log.create_thread("b")
    assert [t.id for t in await log.threads()] == ["a", "b"]
    assert await log.thread("missing") is None
    await log.aclose()


def test_appending_to_an_unknown_thread_fails_and_stores_nothing(open_log: LogOpener) -> None:
    run_async(lambda: _check_appending_to_an_unknown_thread_fails_and_stores_nothing(open_log))


async def _check_appending_to_an_unknown_thread_fails_and_stores_nothing(
    open_log: LogOpener,
) -> None:
    log = open_log()
    with pytest.raises(UnknownThread):
        await log.append("nope", [Message("user", "hi")])
    assert await log.read("nope", 0) == []
    await log.aclose()


def test_seqs_increase_without_gaps_and_read_after_resumes(open_log: LogOpener) -> None:
    run_async(lambda: _check_seqs_increase_without_gaps_and_read_after_resumes(open_log))


async def _check_seqs_increase_without_gaps_and_read_after_resumes(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    assert await log.append("t", [Message("user", "a"), Message("user", "b")]) == [1, 2]
    assert await log.append("t", [Message("assistant", "c")]) == [3]
    assert [seq for seq, _ in await log.read("t", 1)] == [2, 3]
    assert [seq for seq, _ in await log.read("t", 0, upto=2)] == [1, 2]
    assert [seq for seq, _ in await log.read("t", 0, limit=1)] == [1]
    info = await log.thread("t")
    assert info is not None and info.last_seq == 3
    await log.aclose()


def test_two_writers_on_one_store_never_reuse_or_skip_a_seq(open_log: LogOpener) -> None:
    run_async(lambda: _check_two_writers_on_one_store_never_reuse_or_skip_a_seq(open_log))


async def _check_two_writers_on_one_store_never_reuse_or_skip_a_seq(open_log: LogOpener) -> None:
    first, second = open_log(), open_log()
    await first.create_thread("t")

    async def write(log_index: int) -> list[int]:
        log = (first, second)[log_index]
        seqs: list[int] = []
        for n in range(20):
            seqs += await log.append("t", [Message("user", f"{log_index}-{n}")])
        return seqs

    a, b = await asyncio.gather(write(0), write(1))
    assert sorted(a + b) == list(range(1, 41))
    await first.aclose()
    await second.aclose()


def test_partials_read_back_exactly_from_any_seq(open_log: LogOpener) -> None:
    run_async(lambda: _check_partials_read_back_exactly_from_any_seq(open_log))


async def _check_partials_read_back_exactly_from_any_seq(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    texts = [f"line {n}\n" * n for n in range(1, 30)]
    observations: list[Observation] = [ToolCall("c1", "shell", {"command": "x"})]
    observations += [partial(t) for t in texts] + [final(texts[-1] + "done\n")]
    await log.append("t", observations)
    for start in (0, 5, 17, 29):
        replay = Replay(log, "t", start)
        items = await replay.next_batch()
        expected = [*observations][start:]
        assert [item.observation for item in items] == expected
    await log.aclose()


def test_the_log_stores_deltas_not_snapshots(open_log: LogOpener) -> None:
    run_async(lambda: _check_the_log_stores_deltas_not_snapshots(open_log))


async def _check_the_log_stores_deltas_not_snapshots(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    texts = ["x" * 100 * n for n in range(1, 301)]  # 30 KB of output in 300 updates
    for text in texts:
        await log.append("t", [partial(text)])
    stored = sum(len(raw) for _, raw in await log.read("t", 0, limit=1000))
    assert stored < 3 * len(texts[-1])  # snapshots would be ~4.5 MB
    await log.aclose()


def test_open_calls_hold_the_current_text_until_the_result(open_log: LogOpener) -> None:
    run_async(lambda: _check_open_calls_hold_the_current_text_until_the_result(open_log))


async def _check_open_calls_hold_the_current_text_until_the_result(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    await log.append("t", [partial("a"), partial("ab")])
    calls = await log.open_calls("t")
    assert calls["c1"].text == "ab" and calls["c1"].last_seq == 2
    await log.append("t", [final("abc")])
    assert await log.open_calls("t") == {}
    await log.aclose()


def test_a_follower_joining_mid_call_starts_from_the_current_text(
    open_log: LogOpener,
) -> None:
    run_async(lambda: _check_a_follower_joining_mid_call_starts_from_the_current_text(open_log))


async def _check_a_follower_joining_mid_call_starts_from_the_current_text(
    open_log: LogOpener,
) -> None:
    log = open_log()
    await log.create_thread("t")
    await log.append("t", [partial("a"), partial("ab")])
    replay = Replay(log, "t", 2)
    running = await replay.running_at_start()
    assert running["c1"].text == "ab"
    await log.append("t", [partial("abc")])
    [item] = await replay.next_batch()
    assert item.observation == partial("abc")
    await log.aclose()


def test_wait_wakes_on_an_append_from_another_client(open_log: LogOpener) -> None:
    run_async(lambda: _check_wait_wakes_on_an_append_from_another_client(open_log))


async def _check_wait_wakes_on_an_append_from_another_client(open_log: LogOpener) -> None:
    reader, writer = open_log(), open_log()
    await writer.create_thread("t")
    waiting = asyncio.create_task(reader.wait("t", 0, timeout=30))
    await asyncio.sleep(0.2)
    await writer.append("t", [Message("user", "hi")])
    assert await waiting is True
    assert await reader.wait("t", 1, timeout=0.3) is False
    await reader.aclose()
    await writer.aclose()


def test_sqlite_reads_use_the_thread_seq_key_never_a_scan(tmp_path: Path) -> None:
    log = SQLiteLog(tmp_path / "log.db")
    plan = log._db.execute(
        "EXPLAIN QUERY PLAN SELECT seq, body FROM records"
        " WHERE thread = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
        ("t", 0, 10, 5),
    ).fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "SEARCH records USING PRIMARY KEY (thread=? AND seq>? AND seq<?)" in details, details
    assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    run_async(log.aclose)


def test_marks_read_back_exactly_from_any_seq(open_log: LogOpener) -> None:
    run_async(lambda: _check_marks_read_back_exactly_from_any_seq(open_log))


async def _check_marks_read_back_exactly_from_any_seq(open_log: LogOpener) -> None:
    """A partial is stored as a delta, yet its at and parentCallId come back (and a joiner's)."""
    log = open_log()
    await log.create_thread("t")
    at = [f"2026-12-01T23:44:{n:02d}.5Z" for n in range(12)]
    marks = [{"at": a, "parent_call_id": "task-1"} for a in at]
    observations: list[Observation] = [ToolCall("c1", "shell", {}, **marks[0])]  # type: ignore[arg-type]
    for n in range(1, 10):
        text = "".join(f"line {k}\n" for k in range(n))
        observations.append(
            ToolResult("c1", "shell", text, complete=False, is_error=False, **marks[n])  # type: ignore[arg-type]
        )
    await log.append("t", observations)
    assert (await log.open_calls("t"))["c1"].parent_call_id == "task-1"  # for a joiner's reset
    final = ToolResult("c1", "shell", "x", complete=True, is_error=False, at=at[10])
    await log.append("t", [final])
    observations.append(final)
    for start in (0, 3, 7, 9):
        items = await Replay(log, "t", start).next_batch()
        assert [item.observation for item in items] == observations[start:]
    await log.aclose()
