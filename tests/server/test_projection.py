"""The page's thread projections: each record read once, always equal to a cold replay.

The log is the real SQLite log; ``CountingLog`` only counts the records its
reads return (a spy on the real component, nothing stubbed).
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from collections.abc import Callable, Coroutine
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolview_servers import run_async

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.contract.thread import Thread
from toolview.render.html import render_thread_html
from toolview.server.page.projection import Projections
from toolview.wire.log import Replay, UnknownThread
from toolview.wire.log.sqlite import SQLiteLog


class CountingLog(SQLiteLog):
    """The real SQLite log, counting the records every ``read`` returns."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(path)
        self.records_read = 0
        self.fail_reads = 0  # that many next reads raise as a locked database would

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        if self.fail_reads:
            self.fail_reads -= 1
            raise sqlite3.OperationalError("database is locked")
        records = await super().read(thread_id, after, upto=upto, limit=limit)
        self.records_read += len(records)
        return records


async def cold(log: SQLiteLog, thread_id: str) -> Thread:
    """The whole thread replayed from seq 0: what the page did before projections."""
    replay, thread = Replay(log, thread_id, 0), Thread()
    while batch := await replay.next_batch(1000):
        for item in batch:
            thread.add(item.observation)
    return thread


AsyncTest = Callable[[Path], Coroutine[Any, Any, None]]


def synced(check: AsyncTest) -> Callable[[Path], None]:
    """A test (taking ``tmp_path``) that runs ``check`` in a loop of its own thread."""

    def test(tmp_path: Path) -> None:
        run_async(lambda: check(tmp_path))

    test.__name__ = test.__qualname__ = check.__name__
    test.__doc__ = check.__doc__
    return test


CALLS = ["a", "b", "c"]
OUTCOMES: list[RunOutcome] = ["completed", "aborted", "error"]


@st.composite
def observation_lists(draw: st.DrawFn) -> list[Observation]:
    """Random threads: calls with growing (or replaced) partial output, runs, messages."""
    texts: dict[str, str] = {}
    out: list[Observation] = []
    for _ in range(draw(st.integers(1, 40))):
        call = draw(st.sampled_from(CALLS))
        step = draw(st.integers(0, 7))
        if step == 0:
            out.append(ToolCall(call, "shell", {"n": len(out)}))
        elif step in (1, 2, 3):
            grown = draw(st.text(max_size=30))
            texts[call] = grown if step == 3 else texts.get(call, "") + grown
            out.append(ToolResult(call, "shell", texts[call], complete=False, is_error=False))
        elif step == 4:
            text = texts.pop(call, "") + draw(st.text(max_size=10))
            out.append(ToolResult(call, "shell", text, complete=True, is_error=draw(st.booleans())))
        elif step == 5:
            out.append(ToolRefused(call, "shell", draw(st.text(max_size=20))))
        elif step == 6:
            run = draw(st.sampled_from(["r1", "r2"]))
            ended = draw(st.sampled_from(OUTCOMES))
            out.append(RunStarted(run) if draw(st.booleans()) else RunEnded(run, ended))
        else:
            out.append(Message(draw(st.sampled_from(["user", "assistant"])), draw(st.text())))
    return out


@settings(max_examples=40)
@given(observation_lists(), st.lists(st.integers(0, 40), max_size=6))
def test_a_projection_read_piecewise_equals_a_cold_replay(
    observations: list[Observation], cuts: list[int]
) -> None:
    async def scenario(folder: str) -> None:
        log = CountingLog(Path(folder) / "log.db")
        projections = Projections(log)
        await log.create_thread("t")
        bounds = sorted({0, len(observations), *(c for c in cuts if c < len(observations))})
        try:
            for start, end in pairwise(bounds):
                await log.append("t", observations[start:end])
                projection = await projections.current("t")
                assert projection.seq == end
            assert log.records_read == len(observations)  # each record read once, no more
            expected = await cold(log, "t")
            assert projection.thread == expected
            assert render_thread_html(projection.thread) == render_thread_html(expected)
        finally:
            await log.aclose()

    with tempfile.TemporaryDirectory() as folder:
        run_async(lambda: scenario(folder))


def running(call: str, text: str) -> ToolResult:
    return ToolResult(call, "shell", text, complete=False, is_error=False)


@synced
async def test_many_requests_read_each_record_once(tmp_path: Path) -> None:
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log)
    await log.create_thread("t")
    output = ""
    try:
        for n in range(200):  # a call running across every request, then many calls
            output += f"line {n}\n"
            await log.append("t", [running("long", output), ToolCall(f"c{n}", "shell", {})])
            await asyncio.gather(*(projections.current("t") for _ in range(3)))
        await log.append("t", [ToolResult("long", "shell", output, complete=True, is_error=False)])
        projection = await projections.current("t")
        assert log.records_read == 401
        assert projection.thread == await cold(log, "t")
        assert len(projection.thread.calls()) == 201
    finally:
        await log.aclose()


@synced
async def test_concurrent_requests_while_appending_never_corrupt_a_thread(tmp_path: Path) -> None:
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log)
    await log.create_thread("t")

    async def produce() -> None:
        text = ""
        for n in range(60):
            text += "x" * n
            await log.append("t", [running("c", text), Message("assistant", str(n))])

    async def read() -> None:
        for _ in range(60):
            await projections.current("t")

    try:
        await asyncio.gather(produce(), read(), read(), read())
        projection = await projections.current("t")
        assert projection.seq == 120
        assert log.records_read == 120  # each record read once, however requests interleave
        assert projection.thread == await cold(log, "t")
    finally:
        await log.aclose()


@synced
async def test_at_most_capacity_threads_are_kept_least_recently_used_out(tmp_path: Path) -> None:
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log, capacity=2)
    try:
        for name in ("a", "b", "c"):
            await log.create_thread(name)
            await log.append(name, [Message("user", name)])
        await projections.current("a")
        await projections.current("b")
        await projections.current("a")  # a is now the most recently used
        await projections.current("c")
        assert len(projections) == 2
        assert "a" in projections and "c" in projections and "b" not in projections
        before = log.records_read
        await projections.current("b")  # evicted: rebuilt from the log, correctly
        assert log.records_read == before + 1
        assert "a" not in projections
    finally:
        await log.aclose()


@synced
async def test_a_failed_read_drops_the_entry_and_the_next_request_rebuilds(
    tmp_path: Path,
) -> None:
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log)
    await log.create_thread("t")
    try:
        await log.append("t", [ToolCall("c", "shell", {}), running("c", "one\n")])
        await projections.current("t")
        await log.append("t", [running("c", "one\ntwo\n"), Message("user", "hi")])
        log.fail_reads = 1
        with pytest.raises(sqlite3.OperationalError):
            await projections.current("t")
        assert "t" not in projections
        projection = await projections.current("t")
        assert projection.thread == await cold(log, "t")
        assert projection.seq == 4
    finally:
        await log.aclose()


@synced
async def test_an_unknown_thread_is_refused_and_not_kept(tmp_path: Path) -> None:
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log)
    try:
        with pytest.raises(UnknownThread):
            await projections.current("nope")
        assert len(projections) == 0
        with pytest.raises(ValueError, match="at least 1"):
            Projections(log, capacity=0)
    finally:
        await log.aclose()


@synced
async def test_a_thread_re_created_under_its_id_is_projected_afresh(tmp_path: Path) -> None:
    """Another log file at the same path: same id, another ``created``: nothing kept."""
    log = CountingLog(tmp_path / "log.db")
    projections = Projections(log)
    await log.create_thread("t")
    await log.append("t", [Message("user", "old"), Message("user", "older")])
    await projections.current("t")
    db = sqlite3.connect(tmp_path / "log.db")
    with db:
        db.execute("DELETE FROM records WHERE thread = 't'")
        db.execute("UPDATE threads SET created = created + 1, last_seq = 0 WHERE id = 't'")
    db.close()
    try:
        await log.append("t", [Message("user", "new")])
        projection = await projections.current("t")
        assert projection.thread == await cold(log, "t")
        assert len(projection.thread.entries) == 1
    finally:
        await log.aclose()


def described(call: str, text: str, props: dict[str, Any], complete: bool) -> ToolResult:
    descriptor = Descriptor("shell", {"command": "make", **props})
    return ToolResult(call, "shell", text, complete=complete, is_error=False, descriptor=descriptor)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.text(min_size=2, max_size=40), st.booleans(), st.booleans())))
def test_props_repeating_the_text_are_held_once_and_read_as_before(
    results: list[tuple[str, bool, bool]],
) -> None:
    """A result whose props repeat its text keeps one string (memory, issue 23: 5); the
    thread, and its page, equal a cold replay's, whose props are decoded copies."""
    observations: list[Observation] = []
    for n, (text, repeats, complete) in enumerate(results):
        observations.append(ToolCall(f"c{n}", "shell", {}))
        stdout = text if repeats else text + "!"
        props = {"stdout": stdout, "stderr": text + "?", "exitCode": 0}
        observations.append(described(f"c{n}", text, props, complete))

    async def scenario(folder: str) -> None:
        log = SQLiteLog(Path(folder) / "log.db")
        try:
            await log.create_thread("t")
            await log.append("t", observations)
            thread = (await Projections(log).current("t")).thread
            expected = await cold(log, "t")
            assert thread == expected
            assert render_thread_html(thread) == render_thread_html(expected)
            for n, (_, repeats, _) in enumerate(results):
                entry = thread.call(f"c{n}")
                result = entry.result if entry is not None else None
                assert isinstance(result, ToolResult) and isinstance(result.descriptor, Descriptor)
                props = result.descriptor.props
                assert (props["stdout"] is result.text) == repeats
                assert props["stderr"] is not result.text
        finally:
            await log.aclose()

    with tempfile.TemporaryDirectory() as folder:
        run_async(lambda: scenario(folder))
