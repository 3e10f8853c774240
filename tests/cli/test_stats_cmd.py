"""``toolview stats`` on the real Claude Code and Codex sessions: sums of what ``sessions`` says.

Run as commands (child processes): every agent's row of ``stats --json`` is
the sum of that agent's ``sessions --json`` rows (calls with the sub-agents',
failures, dollars): one home of counts and cost, summed, never re-counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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
    assert set(stats) == {"day", "week", "agent", "project", "model"}
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
