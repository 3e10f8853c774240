"""The committed real rollouts (Codex 0.171.0, tests/hosts/codex/real) mapped in detail."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolResult,
    Truncation,
    Usage,
)
from toolview.hosts.codex import CodexMapper, load_observations, session_files
from toolview.hosts.sessions import SessionNote

REAL = Path(__file__).resolve().parent / "real" / "sessions"
(_MAIN_FILE,) = session_files(REAL)
(_SUB_FILE,) = [p for p in REAL.rglob("rollout-*.jsonl") if p != _MAIN_FILE]
MAIN, SUB = _MAIN_FILE.stem[-36:], _SUB_FILE.stem[-36:]  # the thread ids end the names


@pytest.fixture
def observations(fixture_sessions: Path) -> list[Observation]:
    (main,) = session_files(fixture_sessions)
    assert main.name.endswith(f"{MAIN}.jsonl")
    stream = list(load_observations(main))
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    return [o for o in stream if not isinstance(o, SessionNote)]


def _results(observations: list[Observation]) -> dict[str, ToolResult]:
    return {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}


def test_the_persisted_64k_of_a_168k_output_is_a_truncation(
    observations: list[Observation],
) -> None:
    big = _results(observations)["call_big"]
    assert len(big.text.encode()) == 65536
    assert "... command output truncated for persistence ..." in big.text
    assert big.descriptor is not msgspec.UNSET
    assert big.descriptor.truncated == Truncation(shown=12222, total=30001, unit="lines")
    assert big.descriptor.props["exitCode"] == 0 and big.descriptor.props["durationMs"] == 0


def test_the_patch_is_one_diff_relative_to_the_workspace(observations: list[Observation]) -> None:
    patch = _results(observations)["call_patch"]
    assert patch.descriptor is not msgspec.UNSET
    diff = str(patch.descriptor.props["diff"])
    assert diff.startswith("--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1,3 @@\n+a new file\n")
    assert diff.endswith(
        "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+beta, patched\n gamma\n"
    )
    assert patch.text == "Success. Updated the following files:\nA added.txt\nM notes.txt\n"


def test_the_plan_is_a_checklist(observations: list[Observation]) -> None:
    plan = _results(observations)["call_plan"]
    assert plan.descriptor is not msgspec.UNSET and plan.descriptor.kind == "todo"
    assert plan.descriptor.props == {
        "items": [
            {"content": "list the numbers", "status": "completed"},
            {"content": "patch notes.txt", "status": "in_progress"},
            {"content": "report back", "status": "pending"},
        ]
    }


def test_runs_messages_and_usage(observations: list[Observation]) -> None:
    runs = [o for o in observations if isinstance(o, RunStarted | RunEnded)]
    assert [(o.run_id, getattr(o, "outcome", None), getattr(o, "reason", None)) for o in runs] == [
        (f"{MAIN}/1", None, None),
        (f"{SUB}/1", None, None), (f"{SUB}/1", "completed", msgspec.UNSET),  # inside the spawn
        (f"{MAIN}/1", "completed", msgspec.UNSET),
        (f"{MAIN}/2", None, None), (f"{MAIN}/2", "aborted", "interrupted"),
        (f"{MAIN}/3", None, None), (f"{MAIN}/3", "aborted", "the rollout ends before the turn did"),
    ]  # fmt: skip
    roles = [(o.role, o.text.split("\n")[0]) for o in observations if isinstance(o, Message)]
    assert roles == [
        ("user", "Work through the scripted steps."),
        ("thinking", "Plan: list numbers, fail once, patch, plan, delegate."),
        ("user", "Message Type: NEW_TASK"),  # the sub-agent's, inside the spawn
        ("thinking", "Count with wc."),
        ("assistant", "notes.txt has 3 lines; added.txt holds a key."),
        ("user", "Message Type: FINAL_ANSWER"),
        ("assistant", "All done: numbers listed, notes patched, the sub-agent counted."),
        ("user", "run call_sleep"),
        ("user", "run call_hang"),
    ]
    usage = [o for o in observations if isinstance(o, Usage)]
    assert len(usage) == 12  # 13 responses; the CLI was killed before it counted the last
    assert {u.run_id for u in usage} == {f"{MAIN}/1", f"{MAIN}/2", f"{SUB}/1"}


def test_a_growing_file_maps_like_a_finished_one(fixture_sessions: Path) -> None:
    """Fed in two halves with a finish only at the end, the observations are the same."""
    (main,) = session_files(fixture_sessions)
    raw = main.read_bytes().splitlines()
    mapper = CodexMapper()
    first = [o for line in raw[:20] for o in mapper.feed_line(line)]
    rest = [o for line in raw[20:] for o in mapper.feed_line(line)] + mapper.finish()
    whole = CodexMapper()
    assert first + rest == [o for line in raw for o in whole.feed_line(line)] + whole.finish()
