"""bench/session_repeat.py: a big session made of real ones reads as one session, not copies.

The figures of ``bench/sessions.py`` (docs/performance.md, "Agent sessions")
are only worth what its input is: a session where a repeated record kept
its uuid, tool_use id or sub-agent file name would be deduplicated, mis-paired
or orphaned by a reader, and measure less work than it claims. Built here
from the real Claude Code 2.1.197 session under tests/hosts/claude_code/real.
"""

from __future__ import annotations

import json
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).parents[2]
sys.path.insert(0, str(REPO / "bench"))
from session_repeat import REAL, main_sessions, write_repeated  # noqa: E402  (a bench script)


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _calls(records: list[dict[str, Any]]) -> list[str]:
    return [
        block["id"]
        for record in records
        if record["type"] == "assistant"
        for block in record["message"]["content"]
        if block["type"] == "tool_use"
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    sources = main_sessions(REAL)
    assert sources, f"no real session under {REAL}"
    folder = tmp_path_factory.mktemp("repeat") / "projects" / "-p"
    path = write_repeated(sources, folder, calls=30)
    return path, _records(path)


def test_every_id_is_fresh_and_every_result_is_paired(
    built: tuple[Path, list[dict[str, Any]]],
) -> None:
    path, records = built
    source = [r for path in main_sessions(REAL) for r in _records(path)]  # one pass
    per_pass = len(_calls(source))
    calls = _calls(records)
    assert len(calls) >= 30 and len(calls) % per_pass == 0  # whole passes
    assert len(set(calls)) == len(calls)
    uuids = [r["uuid"] for r in records if "uuid" in r]
    assert len(set(uuids)) == len(uuids)
    assert not set(uuids) & {r["uuid"] for r in source if "uuid" in r}
    results = [
        block["tool_use_id"]
        for r in records
        if r["type"] == "user" and isinstance(r["message"]["content"], list)
        for block in r["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert sorted(results) == sorted(calls)
    assert {r["sessionId"] for r in records if "sessionId" in r} == {path.stem}


def test_one_parent_chain_and_time_moving_forward(
    built: tuple[Path, list[dict[str, Any]]],
) -> None:
    _, records = built
    chained = [r for r in records if "parentUuid" in r]
    assert chained[0]["parentUuid"] is None
    roots = [r for r in chained[1:] if r["parentUuid"] is None]
    assert roots == []  # each pass's first record hangs on the one before it
    known: set[str] = set()
    for record in chained:
        assert record["parentUuid"] is None or record["parentUuid"] in known
        known.add(record["uuid"])
    per_pass = sum(len(_records(path)) for path in main_sessions(REAL))
    passes = [records[n : n + per_pass] for n in range(0, len(records), per_pass)]
    assert len(passes) >= 2
    for before, after in pairwise(passes):
        last = max(r["timestamp"] for r in before if "timestamp" in r)
        assert min(r["timestamp"] for r in after if "timestamp" in r) > last


def test_sub_agent_files_and_stored_outputs_follow_their_calls(
    built: tuple[Path, list[dict[str, Any]]],
) -> None:
    path, records = built
    side = path.with_suffix("")
    calls = set(_calls(records))
    results = [r["toolUseResult"] for r in records if isinstance(r.get("toolUseResult"), dict)]
    agents = [result["agentId"] for result in results if "agentId" in result]
    assert agents and len(set(agents)) == len(agents)
    for agent in agents:
        sub = _records(side / "subagents" / f"agent-{agent}.jsonl")
        assert {r["agentId"] for r in sub} == {agent}
        meta = json.loads((side / "subagents" / f"agent-{agent}.meta.json").read_text())
        assert meta["toolUseId"] in calls
    stored = [Path(r["persistedOutputPath"]).name for r in results if "persistedOutputPath" in r]
    assert stored and len(set(stored)) == len(stored)
    assert all((side / "tool-results" / name).is_file() for name in stored)
    assert len(list((side / "subagents").glob("*.jsonl"))) == len(agents)  # no orphan
