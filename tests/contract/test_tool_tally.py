"""Calls by tool (``contract.tool_tally``, kept by the ledger): what the ledger holds of each call.

On the real Claude Code (with its sub-agent) and Codex sessions: every call of
the thread and its sub-agents walked one by one (its tool, its state as the
ledger says it, its call's and result's times) gives the same rows as
``counts().tools``; a thread drained as a stream (``sessions``, ``stats``: the
calls forgotten once drawn) gives the same rows too, and the rows add up to the
session's calls and failures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from toolview.contract import Observation, Thread
from toolview.contract.tool_tally import ToolCount
from toolview.hosts import claude_code, codex

TESTS = Path(__file__).parents[1]
CLAUDE = TESTS / "hosts" / "claude_code" / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
CODEX = next((TESTS / "hosts" / "codex" / "real" / "sessions").rglob("rollout-*-bcb4-*.jsonl"))
SESSIONS = [
    pytest.param(CLAUDE, claude_code.load_observations, id="claude-code"),
    pytest.param(CODEX, codex.load_observations, id="codex"),
]
Loader = Callable[[Path], Iterator[object]]


def walked(thread: Thread) -> dict[str, tuple[int, int, list[int]]]:
    """Each tool's calls, failed and durations, read call by call from the threads' entries."""
    rows: dict[str, tuple[int, int, list[int]]] = {}
    for entry in thread.calls():
        calls, failed, took = rows.get(entry.tool_name or "?", (0, 0, []))
        failing = thread.state(entry) == "error"
        done = entry.result
        if entry.call is not None and done is not None and entry.call.at and done.at:
            began = datetime.fromisoformat(str(entry.call.at).replace("Z", "+00:00"))
            ended = datetime.fromisoformat(str(done.at).replace("Z", "+00:00"))
            took = [*took, round((ended - began).total_seconds() * 1000)]
        rows[entry.tool_name or "?"] = (calls + 1, failed + failing, took)
    for child in thread.children():
        for tool, (calls, failed, took) in walked(child).items():
            held = rows.get(tool, (0, 0, []))
            rows[tool] = (held[0] + calls, held[1] + failed, held[2] + took)
    return rows


def as_rows(tools: tuple[ToolCount, ...]) -> dict[str, tuple[int, int, list[int]]]:
    return {row.tool: (row.calls, row.failed, sorted(row.took_ms)) for row in tools}


@pytest.mark.parametrize(("path", "load"), SESSIONS)
def test_the_rows_by_tool_are_the_ledgers_calls_one_by_one(path: Path, load: Loader) -> None:
    observations = [o for o in load(path) if isinstance(o, Observation)]
    thread = Thread.from_observations(observations)
    counts = thread.counts()
    expected = {tool: (c, f, sorted(t)) for tool, (c, f, t) in walked(thread).items()}
    assert as_rows(counts.tools) == expected
    assert sum(row.calls for row in counts.tools) == counts.calls + counts.sub_calls
    assert sum(row.failed for row in counts.tools) == counts.failed + counts.sub_failed
    assert any(row.took_ms for row in counts.tools) and len(counts.tools) >= 5

    streamed = Thread()
    for observation in observations:
        streamed.add(observation)
        streamed.drain()
    assert as_rows(streamed.counts().tools) == expected
