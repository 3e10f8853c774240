"""Read positions stored with the observations read from there, on both backends.

A real SQLite file and a real redis-server (the ``open_log`` fixture); two
clients on one store stand for two server processes reading the same file.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from toolview_servers import run_async

from toolview.contract import Message, Observation, ToolCall
from toolview.wire.log import ObservationLog, UnknownThread
from toolview.wire.sources import PositionedLog, PositionMoved, SourceMove

LogOpener = Callable[[], ObservationLog]

BATCH: list[Observation] = [ToolCall("c1", "shell", {"command": "make"}), Message("user", "hi")]


def opened(open_log: LogOpener) -> Any:
    log = open_log()
    assert isinstance(log, PositionedLog)
    return log


def test_observations_and_position_are_stored_together(open_log: LogOpener) -> None:
    async def check() -> None:
        log = opened(open_log)
        await log.create_thread("t")
        assert await log.position("/a/file.jsonl") is None
        seqs = await log.append_from("t", BATCH, SourceMove("/a/file.jsonl", None, b"p1"))
        assert seqs == [1, 2]
        assert await log.position("/a/file.jsonl") == b"p1"
        assert await log.position("/another") is None
        more = await log.append_from("t", BATCH[1:], SourceMove("/a/file.jsonl", b"p1", b"p2"))
        assert more == [3] and await log.position("/a/file.jsonl") == b"p2"
        await log.aclose()

    run_async(check)


def test_a_move_from_the_wrong_position_stores_nothing(open_log: LogOpener) -> None:
    async def check() -> None:
        log = opened(open_log)
        await log.create_thread("t")
        await log.append_from("t", BATCH, SourceMove("f", None, b"p1"))
        for stale in (None, b"p0"):
            with pytest.raises(PositionMoved):
                await log.append_from("t", BATCH, SourceMove("f", stale, b"p9"))
        info = await log.thread("t")
        assert info is not None and info.last_seq == 2
        assert await log.position("f") == b"p1"
        assert [seq for seq, _ in await log.read("t", 0)] == [1, 2]
        await log.aclose()

    run_async(check)


def test_an_empty_batch_moves_only_the_position(open_log: LogOpener) -> None:
    async def check() -> None:
        log = opened(open_log)
        await log.create_thread("t")
        assert await log.append_from("t", [], SourceMove("f", None, b"p1")) == []
        assert await log.position("f") == b"p1"
        info = await log.thread("t")
        assert info is not None and info.last_seq == 0
        await log.aclose()

    run_async(check)


def test_an_unknown_thread_moves_nothing(open_log: LogOpener) -> None:
    async def check() -> None:
        log = opened(open_log)
        with pytest.raises(UnknownThread):
            await log.append_from("nope", BATCH, SourceMove("f", None, b"p1"))
        assert await log.position("f") is None
        await log.aclose()

    run_async(check)


def test_two_clients_racing_from_one_position_store_one_batch(open_log: LogOpener) -> None:
    """Two servers sharing a log read the same file: exactly one batch lands per move."""

    async def check() -> None:
        first, second = opened(open_log), opened(open_log)
        await first.create_thread("t")

        async def move(log: Any, text: str) -> bool:
            try:
                await log.append_from("t", [Message("user", text)], SourceMove("f", None, b"p1"))
            except PositionMoved:
                return False
            return True

        won = await asyncio.gather(*(move(log, f"m{n}") for n, log in enumerate([first, second])))
        assert sorted(won) == [False, True]
        info = await first.thread("t")
        assert info is not None and info.last_seq == 1
        await first.aclose()
        await second.aclose()

    run_async(check)
