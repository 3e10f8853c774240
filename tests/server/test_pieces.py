"""A thread's page from cached pieces is the markup ``render_thread_html`` gives.

The log is the real SQLite log, the pieces are rendered by the real worker
processes (more than a few pieces go there) or thread (a few), and every read
of a growing thread, cached pieces reused or not, is compared with a cold
render of the same thread.
"""

from __future__ import annotations

import asyncio
import tempfile
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from thread_strategies import threads
from toolview_servers import NDJSON, run_async

from toolview.contract import (
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
    encode_observation,
)
from toolview.render.html import render_thread_html
from toolview.render.html.receipt import summary_html
from toolview.render.summary import thread_summary
from toolview.safety import escape_html
from toolview.server import offload
from toolview.server.page.pieces.cache import PieceCache
from toolview.server.page.pieces.markup import next_tick, thread_markup
from toolview.server.page.projection import Projections
from toolview.server.page.running import status_line
from toolview.wire.log.sqlite import SQLiteLog


@settings(max_examples=40, deadline=None)
@given(threads(), st.lists(st.integers(0, 30), max_size=4), st.integers(0, 4000))
def test_a_page_of_cached_pieces_equals_a_cold_render(
    observations: list[Observation], cuts: list[int], limit: int
) -> None:
    async def scenario(folder: str) -> None:
        log = SQLiteLog(Path(folder) / "log.db")
        projections, cache = Projections(log), PieceCache(limit)
        await log.create_thread("t")
        bounds = sorted({0, len(observations), *(c for c in cuts if c < len(observations))})
        try:
            for start, end in pairwise(bounds):
                await log.append("t", observations[start:end])
                for _ in range(2):  # a second view reuses what the first cached
                    drawn = await thread_markup(projections, cache, "t")
                    expected = Thread.from_observations(observations[:end])
                    assert drawn.seq == end
                    assert drawn.html == render_thread_html(expected)
                    assert cache.size <= limit
        finally:
            await log.aclose()

    with tempfile.TemporaryDirectory() as folder:
        run_async(lambda: scenario(folder))


def test_a_call_is_rendered_again_only_when_it_changes(tmp_path: Path) -> None:
    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        projections, cache = Projections(log), PieceCache()
        await log.create_thread("t")
        calls = [ToolCall(f"c{n}", "shell", {"n": n}) for n in range(10)]
        try:
            await log.append("t", [RunStarted("r"), *calls])
            first = await thread_markup(projections, cache, "t")
            assert len(first.jobs) == 10 and len(cache) == 10
            await log.append("t", [ToolResult("c3", "shell", "ok", complete=True, is_error=False)])
            second = await thread_markup(projections, cache, "t")
            assert [position for position, _ in second.jobs] == [3]  # c3 alone
            await log.append("t", [RunEnded("r", "aborted", "stopped")])
            third = await thread_markup(projections, cache, "t")
            redrawn = [position for position, _ in third.jobs]
            assert redrawn == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10]  # the aborted calls, the run's note
            assert [call.tool_call_id for call in third.pending] == []
        finally:
            await log.aclose()

    run_async(scenario)


def test_the_served_summary_is_the_summary_of_the_thread(client: TestClient) -> None:
    observations: list[Observation] = [
        RunStarted("r"),
        ToolCall("a", "shell", {}),
        ToolResult(
            "a", "shell", '{"schemaVersion":"1.0","tool":"t","status":"denied"}', True, False
        ),
        ToolCall("b", "shell", {}),
        ToolResult("b", "shell", "boom", complete=True, is_error=True),
        ToolCall("c", "shell", {}),
        RunEnded("r", "aborted", "interrupted"),
        ToolCall("d", "shell", {}),
    ]
    client.post("/api/threads", json={"id": "t"}).raise_for_status()
    body = b"\n".join(encode_observation(o) for o in observations)
    client.post("/api/threads/t/observations", content=body, headers=NDJSON).raise_for_status()
    summary = thread_summary(Thread.from_observations(observations))
    assert summary is not None
    assert client.get("/threads/t/summary").text == summary_html(summary)
    thread = Thread.from_observations(observations)
    page = client.get("/threads/t").text
    assert render_thread_html(thread) in page
    assert f">{escape_html(status_line(thread))}</p>" in page


def test_without_worker_processes_a_page_is_rendered_in_a_thread_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(offload, "_unavailable", "no semaphores here")  # as after two failures
    items = [ToolCall(f"c{n}", "shell", {"n": n}) for n in range(12)]

    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        try:
            await log.create_thread("t")
            await log.append("t", items)
            drawn = await thread_markup(Projections(log), PieceCache(), "t")
            assert drawn.html == render_thread_html(Thread.from_observations(items))
        finally:
            await log.aclose()

    run_async(scenario)
    assert "rendering pages in a thread" in caplog.text
    assert "no semaphores here" in caplog.text


def test_a_view_bigger_than_the_cache_keeps_its_first_pieces_for_the_next() -> None:
    cache = PieceCache(limit=30)
    first = next_tick()
    kept = [cache.put((0, n, 0), "x" * 10, first) for n in range(5)]
    assert kept == [True, True, True, False, False]  # never evicts its own pieces
    second = next_tick()
    assert [cache.get((0, n, 0), second) for n in range(5)] == ["x" * 10] * 3 + [None] * 2
    assert cache.put((1, 0, 0), "y" * 10, next_tick())  # another request evicts the oldest
    assert cache.get((0, 0, 0), next_tick()) is None
    assert cache.size == 30


def test_two_views_of_a_cold_page_at_once_render_it_once(tmp_path: Path) -> None:
    items = [ToolCall(f"c{n}", "shell", {"n": n}) for n in range(40)]

    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        try:
            await log.create_thread("t")
            await log.append("t", items)
            projections, cache = Projections(log), PieceCache()
            views = [thread_markup(projections, cache, "t") for _ in range(2)]
            first, second = await asyncio.gather(*views)
            assert first.html == second.html == render_thread_html(Thread.from_observations(items))
            assert sorted([len(first.jobs), len(second.jobs)]) == [0, 40]
        finally:
            await log.aclose()

    run_async(scenario)
