"""The session watcher on a real log of each backend (SQLite file, redis-server).

Files are written in a temporary folder while ``SessionWatcher.run`` watches
it; each step waits on the log (``log.wait``: an append wakes it), never on a
sleep. What ``toolview serve --watch`` does around it is ``test_watch_serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_watch_reader import COUNTING
from toolview_servers import run_async

from toolview.server.ingest.watch import watcher as watch
from toolview.server.ingest.watch.watcher import SessionWatcher, WatchRoot
from toolview.wire.sources import PositionedLog

LogOpener = Any


def line(text: str, **extra: object) -> bytes:
    record = {"kind": "message", "role": "user", "text": text, **extra}
    return json.dumps(record).encode() + b"\n"


async def records(log: PositionedLog, thread: str) -> list[dict[str, Any]]:
    return [json.loads(body) for _, body in await log.read(thread, 0, limit=100_000)]


async def until_seq(log: PositionedLog, thread: str, seq: int, timeout: float = 60) -> None:
    """Until ``thread`` holds ``seq`` observations (woken by each append)."""
    deadline = time.monotonic() + timeout
    while True:
        info = await log.thread(thread)
        last = info.last_seq if info is not None else 0
        if last >= seq:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{thread}: {last} of {seq} observations after {timeout}s")
        await log.wait(thread, last, timeout=1.0)


@contextlib.asynccontextmanager
async def watching(log: PositionedLog, *roots: Path) -> AsyncIterator[SessionWatcher]:
    watcher = SessionWatcher(log, [WatchRoot(root) for root in roots])
    task = asyncio.create_task(watcher.run())
    try:
        yield watcher
    finally:
        watcher.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_catch_up_then_each_line_as_it_is_written(open_log: LogOpener, tmp_path: Path) -> None:
    async def check() -> None:
        log = open_log()
        (tmp_path / "old.jsonl").write_bytes(line("old 1") + line("old 2"))
        live = tmp_path / "project" / "live.jsonl"
        async with watching(log, tmp_path):
            await until_seq(log, "old", 2)
            live.parent.mkdir()  # a folder made after the start is watched too
            live.write_bytes(line("live 1"))
            await until_seq(log, "live", 1)
            for n in range(2, 5):
                whole = line(f"live {n}")
                with live.open("ab") as stream:  # a line in two writes: one observation
                    stream.write(whole[:7])
                    stream.flush()
                    stream.write(whole[7:])
                await until_seq(log, "live", n)
        assert [r["text"] for r in await records(log, "live")] == [f"live {n}" for n in range(1, 5)]
        assert [r["text"] for r in await records(log, "old")] == ["old 1", "old 2"]
        await log.aclose()

    run_async(check)


def test_a_restart_reads_on_with_no_duplicate_and_no_gap(
    open_log: LogOpener, tmp_path: Path
) -> None:
    async def check() -> None:
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"".join(line(f"m{n}") for n in range(3)))
        first = open_log()
        async with watching(first, tmp_path):
            await until_seq(first, "s", 3)
        await first.aclose()
        with path.open("ab") as stream:  # written while no server runs
            stream.write(b"".join(line(f"m{n}") for n in range(3, 6)))
        second = open_log()  # a new process: only the log is left
        async with watching(second, tmp_path):
            await until_seq(second, "s", 6)
            with path.open("ab") as stream:
                stream.write(line("m6"))
            await until_seq(second, "s", 7)
        assert [r["text"] for r in await records(second, "s")] == [f"m{n}" for n in range(7)]
        await second.aclose()

    run_async(check)


def test_a_replaced_file_goes_to_a_new_thread_version(open_log: LogOpener, tmp_path: Path) -> None:
    async def check() -> None:
        log = open_log()
        path = tmp_path / "s.jsonl"
        path.write_bytes(line("first life"))
        async with watching(log, tmp_path):
            await until_seq(log, "s", 1)
            (tmp_path / "s.tmp").write_bytes(line("second life") + line("goes on"))
            (tmp_path / "s.tmp").replace(path)
            await until_seq(log, "s.2", 2)
            path.write_bytes(line("third"))  # cut: shorter than what was read
            await until_seq(log, "s.3", 1)
        assert [r["text"] for r in await records(log, "s")] == ["first life"]
        assert [r["text"] for r in await records(log, "s.2")] == ["second life", "goes on"]
        assert [r["text"] for r in await records(log, "s.3")] == ["third"]
        await log.aclose()

    run_async(check)


def test_a_sub_agent_file_joins_its_session_marked_with_its_call(
    open_log: LogOpener, tmp_path: Path
) -> None:
    """Claude Code's layout: ``<s>/subagents/agent-<id>.jsonl`` and its ``.meta.json`` link."""

    async def check() -> None:
        log = open_log()
        session = "2daa88ac-4540-4f7e-a6a5-a72ef01d16e8"
        main = tmp_path / f"{session}.jsonl"
        agents = tmp_path / session / "subagents"
        main.write_bytes(line("main 1"))
        async with watching(log, tmp_path):
            await until_seq(log, session, 1)
            agents.mkdir(parents=True)
            (agents / "agent-a1.jsonl").write_bytes(line("sub 1"))  # before its link
            meta = json.dumps({"agentType": "general-purpose", "toolUseId": "toolu_12agent"})
            (agents / "agent-a1.meta.json").write_text(meta)
            await until_seq(log, session, 2)
            with (agents / "agent-a1.jsonl").open("ab") as stream:
                stream.write(line("sub 2"))
            await until_seq(log, session, 3)
            with main.open("ab") as stream:
                stream.write(line("main 2"))
            await until_seq(log, session, 4)
        got = [(r["text"], r.get("parentCallId")) for r in await records(log, session)]
        assert got == [
            ("main 1", None),
            ("sub 1", "toolu_12agent"),
            ("sub 2", "toolu_12agent"),
            ("main 2", None),
        ]
        assert [t.id for t in await log.threads()] == [session]  # no thread of its own
        await log.aclose()

    run_async(check)


def test_two_files_of_one_name_never_share_a_thread(open_log: LogOpener, tmp_path: Path) -> None:
    async def check() -> None:
        log = open_log()
        for folder in ("a", "b"):
            (tmp_path / folder).mkdir()
        (tmp_path / "a" / "s.jsonl").write_bytes(line("from a"))
        async with watching(log, tmp_path / "a", tmp_path / "b"):
            await until_seq(log, "s", 1)
            (tmp_path / "b" / "s.jsonl").write_bytes(line("from b"))
            await until_seq(log, "s.2", 1)
            with (tmp_path / "a" / "s.jsonl").open("ab") as stream:
                stream.write(line("a again"))
            await until_seq(log, "s", 2)
        assert [r["text"] for r in await records(log, "s")] == ["from a", "a again"]
        assert [r["text"] for r in await records(log, "s.2")] == ["from b"]
        await log.aclose()

    run_async(check)


def test_a_file_whose_mapper_was_let_go_is_fed_again_when_it_grows(
    open_log: LogOpener, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the last ``KEEP_READERS`` mappers stay; another's state is rebuilt, exactly."""
    monkeypatch.setattr(watch, "KEEP_READERS", 1)

    async def check() -> None:
        log = open_log()
        watcher = SessionWatcher(log, [WatchRoot(tmp_path)], (COUNTING,))
        task = asyncio.create_task(watcher.run())
        try:
            for name in ("x", "y"):
                (tmp_path / f"{name}.jsonl").write_bytes(b'{"t": "1"}\n{"t": "2"}\n')
                await until_seq(log, f"count-{name}", 2)
            assert list(watcher.readers) == [tmp_path / "y.jsonl"]
            with (tmp_path / "x.jsonl").open("ab") as stream:
                stream.write(b'{"t": "3"}\n')
            await until_seq(log, "count-x", 3)
        finally:
            watcher.stop()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        texts = [r["text"] for r in await records(log, "count-x")]
        assert texts == ["1 after 0", "2 after 1", "3 after 2"]
        await log.aclose()

    run_async(check)
