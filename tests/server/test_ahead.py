"""The newest threads drawn at start (``server.page.pieces.ahead``), before anyone asks.

The log is the real SQLite log and the pieces are drawn by the real render
processes. What must hold: warming projects the newest threads and draws
their first window (a view then finds every piece), the page a warmed
server gives is byte for byte the page a cold server draws at first view,
and the render processes are started (and ran their warm-up) before any view.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from starlette.testclient import TestClient
from thread_strategies import threads
from toolview_servers import local_client, run_async

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.server import offload
from toolview.server.app import create_app
from toolview.server.page.pieces.ahead import WARM_THREADS, warm_threads
from toolview.server.page.pieces.markup import next_tick, plan, thread_markup
from toolview.server.page.pieces.warm import SOURCES, sample, warm_render
from toolview.server.page.window import PAGE_CALLS, CallWindow
from toolview.server.state import ServerState
from toolview.wire.log.sqlite import SQLiteLog


def calls(count: int) -> list[Observation]:
    made: list[Observation] = [Message("user", "go")]
    for i in range(count):
        made.append(ToolCall(f"c{i}", "shell", {"command": f"echo {i}"}))
        made.append(ToolResult(f"c{i}", "shell", f"out {i}\n", complete=True, is_error=i % 7 == 0))
    return made


def test_the_newest_threads_are_drawn_before_anyone_views_them(tmp_path: Path) -> None:
    sizes = {"oldest": 3, "older": 5, "newer": 8, "newest": PAGE_CALLS + 10}

    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        try:
            for name, count in sizes.items():  # created in this order: the last is the newest
                await log.create_thread(name)
                await log.append(name, calls(count))
            state = ServerState(log)
            await warm_threads(state)
            kept = [name for name in sizes if name in state.projections]
            assert kept == list(sizes)[-WARM_THREADS:]
            for name in kept:  # a view now finds its whole window drawn
                projection = await state.projections.current(name)
                async with projection.lock:
                    window = CallWindow(last=PAGE_CALLS)
                    drawn = plan(projection, state.pieces, next_tick(), window)
                assert drawn.jobs == []
                assert drawn.calls == sizes[name]
                assert drawn.first == max(0, sizes[name] - PAGE_CALLS)
        finally:
            await log.aclose()

    run_async(scenario)


@settings(max_examples=25, deadline=None)
@given(threads())
def test_a_warmed_window_is_the_window_a_cold_view_draws(observations: list[Observation]) -> None:
    async def scenario(folder: str) -> None:
        log = SQLiteLog(Path(folder) / "log.db")
        try:
            await log.create_thread("t")
            await log.append("t", observations)
            warmed, cold = ServerState(log), ServerState(log)
            await warm_threads(warmed)
            window = CallWindow(last=PAGE_CALLS)
            seen = await thread_markup(warmed.projections, warmed.pieces, "t", window)
            drawn = await thread_markup(cold.projections, cold.pieces, "t", window)
            assert (seen.html, seen.seq, seen.first) == (drawn.html, drawn.seq, drawn.first)
            assert (seen.summary, seen.counts) == (drawn.summary, drawn.counts)
        finally:
            await log.aclose()

    with tempfile.TemporaryDirectory() as folder:
        run_async(lambda: scenario(folder))


def test_a_warmed_server_serves_the_page_a_cold_one_draws(tmp_path: Path) -> None:
    database = tmp_path / "log.db"

    async def seed() -> None:
        log = SQLiteLog(database)
        await log.create_thread("t")
        await log.append("t", [*calls(PAGE_CALLS + 5), ToolCall("open", "shell", {})])
        await log.aclose()

    run_async(seed)

    def page(warm: bool) -> str:
        app = create_app(lambda: SQLiteLog(database), warm=warm)
        client: TestClient
        with local_client(app) as client:
            answer = client.get("/threads/t")
            assert answer.status_code == 200
            return answer.text

    warmed = page(warm=True)
    assert warmed == page(warm=False)
    assert 'data-first="6"' in warmed and 'data-calls="66"' in warmed


def test_warming_runs_in_every_render_process_before_any_page() -> None:
    futures = offload.warm_processes(os.getpid)
    assert len(futures) == offload.RENDERERS
    pids = {future.result(timeout=300) for future in futures}
    assert os.getpid() not in pids  # in render processes, not here


def test_the_warm_up_draws_every_kind_it_means_to_warm() -> None:
    """A sample that fell back to plain text (a misspelt prop) would warm nothing."""
    meant = [o["descriptor"]["kind"] for o in sample() if o["kind"] == "tool-result"]
    drawn = [re.findall(r'data-kind="([a-z]+)"', piece) for piece in warm_render()]
    assert [kinds[0] for kinds in drawn if kinds] == meant
    assert meant.count("file") == len(SOURCES)
    assert {"shell", "diff", "json"} <= set(meant)
