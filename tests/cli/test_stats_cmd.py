"""``toolview stats`` on the real Claude Code and Codex sessions: sums of what ``sessions`` says.

Run as commands (child processes): every agent's row of ``stats --json`` is
the sum of that agent's ``sessions --json`` rows (calls with the sub-agents',
failures, dollars): one home of counts and cost, summed, never re-counted.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolview.cli import build_parser
from toolview.cli.session_find import everywhere, roots
from toolview.contract import Observation, Thread

TESTS = Path(__file__).parents[1]
ROOTS = (
    "--claude",
    str(TESTS / "hosts" / "claude_code" / "real"),
    "--codex",
    str(TESTS / "hosts" / "codex" / "real" / "sessions"),
)


def toolview(*words: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "toolview", *words], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_each_agents_stats_are_the_sum_of_its_sessions() -> None:
    rows: list[dict[str, Any]] = [
        json.loads(line) for line in toolview("sessions", "--json", *ROOTS).splitlines()
    ]
    stats = json.loads(toolview("stats", "--json", *ROOTS))
    assert set(stats) == {"day", "week", "agent", "project", "model", "tool"}
    assert set(stats["agent"]) == {"claude-code", "codex"}
    for agent, bucket in stats["agent"].items():
        mine = [row for row in rows if row["agent"] == agent]
        assert bucket["sessions"] == len(mine)
        assert bucket["calls"] == sum(row["calls"] + row["subAgentCalls"] for row in mine)
        assert bucket["failed"] == sum(row["failures"] + row["subAgentFailures"] for row in mine)
        dollars = sum((row["costUsd"] or 0) + (row["subAgentCostUsd"] or 0) for row in mine)
        assert dollars > 0 and bucket["costUsd"] == pytest.approx(dollars, rel=1e-9)
    total = sum(bucket["sessions"] for bucket in stats["week"].values())
    assert total == len([row for row in rows if row["start"]])


def test_the_terminal_tables_say_each_agents_cost() -> None:
    out = toolview("stats", *ROOTS)
    stats = json.loads(toolview("stats", "--json", *ROOTS))
    for agent, bucket in stats["agent"].items():
        (line,) = [line for line in out.splitlines() if line.startswith(agent + " ")]
        assert line.endswith("  " + bucket["costText"])


def test_the_tool_rows_are_the_ledgers_of_every_session() -> None:
    """``stats --json``'s rows by tool: each session's ledger counts by tool (a ``Thread``
    of its observations, sub-agents included), summed over the sessions found."""
    stats = json.loads(toolview("stats", "--json", *ROOTS))["tool"]
    summed: dict[str, list[Any]] = {}
    for found in everywhere(roots(build_parser().parse_args(["stats", *ROOTS]))):
        observations = [o for o in found.host.load(found.path) if isinstance(o, Observation)]
        for row in Thread.from_observations(observations).counts().tools:
            held = summed.setdefault(row.tool, [0, 0, []])
            held[0], held[1] = held[0] + row.calls, held[1] + row.failed
            held[2].extend(row.took_ms)
    assert len(summed) >= 10
    assert stats == {
        tool: {
            "calls": calls,
            "failed": failed,
            "failureRate": failed / calls,
            "medianMs": statistics.median(took) if took else None,
            "timedCalls": len(took),
        }
        for tool, (calls, failed, took) in summed.items()
    }
