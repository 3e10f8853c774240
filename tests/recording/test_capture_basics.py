"""capture(): a run's observations, in order, written where asked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import toolview
from toolview.contract import (
    Message,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
    decode_observation,
)


def _recorded(path: Path) -> list[toolview.Observation]:
    return [decode_observation(line) for line in path.read_bytes().splitlines()]


def test_a_run_is_recorded_in_order(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        rec.message("user", "read a.txt")
        rec.call("c1", "read_file", {"path": "a.txt"})
        rec.result("c1", "hello")
        rec.call("c2", "explode", {})
        rec.error("c2", ValueError("no such thing"))
    kinds = [type(o) for o in _recorded(record)]
    assert kinds == [RunStarted, Message, ToolCall, ToolResult, ToolCall, ToolResult, RunEnded]
    observations = _recorded(record)
    failed = observations[5]
    assert isinstance(failed, ToolResult)
    assert failed.is_error and failed.text == "ValueError: no such thing"
    ended = observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "completed"


def test_an_exception_closes_the_run_with_its_reason(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    with pytest.raises(RuntimeError), toolview.capture(live=False, record=record) as rec:
        rec.call("c1", "slow", {})
        raise RuntimeError("model went away")
    ended = _recorded(record)[-1]
    assert isinstance(ended, RunEnded)
    assert (ended.outcome, ended.reason) == ("error", "RuntimeError: model went away")
    (call,) = rec.thread.calls()
    assert rec.thread.state(call) == "aborted"


def test_async_with(tmp_path: Path) -> None:
    async def agent() -> toolview.Thread:
        async with toolview.capture(live=False) as rec:
            rec.call("c1", "t", {})
            rec.result("c1", {"a": 1})
        return rec.thread

    thread = asyncio.run(agent())
    (call,) = thread.calls()
    assert thread.state(call) == "done"
