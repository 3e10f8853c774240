"""``CopilotMapper`` on what no real run writes: unknown types, hostile lines, a title."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_agents.surfaces import every_surface
from toolview.contract import Observation, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.hosts import claude_code, codex, gemini, qwen
from toolview.hosts.copilot import (
    KNOWN_RECORDS,
    CopilotMapper,
    load_observations,
    session_files,
    sniff,
)
from toolview.hosts.sessions import SessionNote

from .records import event, session, write

REAL = Path(__file__).parent / "real" / "session-state"


def _read(path: Path) -> tuple[list[Observation], list[str]]:
    items = list(load_observations(path))
    notes = [str(i.text) for i in items if isinstance(i, SessionNote)]
    return [i for i in items if not isinstance(i, SessionNote)], notes


def _answered(observations: list[Observation]) -> set[str]:
    calls = {o.tool_call_id for o in observations if isinstance(o, ToolCall)}
    return calls & {o.tool_call_id for o in observations if isinstance(o, ToolResult)}


def test_an_unknown_event_type_is_said_once_and_the_rest_goes_on(tmp_path: Path) -> None:
    strange = event("session.brand_new_thing", {"x": 1})
    observations, notes = _read(write(tmp_path, session(strange, strange)))
    assert len(notes) == 1 and "session.brand_new_thing" in notes[0]
    assert _answered(observations) == {"b1"}


def test_known_bookkeeping_is_passed_over_without_a_note(tmp_path: Path) -> None:
    quiet = [event(kind, {}) for kind in ("session.idle", "assistant.turn_start", "hook.start")]
    assert {"session.idle", "hook.start"} <= KNOWN_RECORDS
    observations, notes = _read(write(tmp_path, session(*quiet)))
    assert notes == [] and _answered(observations) == {"b1"}


@pytest.mark.parametrize(
    "line",
    [b"{not json", b"[1, 2]", b'{"data": {}}', b"\xff\xfe{}", b'{"type": 7}', b'"\x1b[2J"'],
)
def test_a_line_it_cannot_read_is_a_note_never_a_crash(tmp_path: Path, line: bytes) -> None:
    observations, notes = _read(write(tmp_path, session(line)))  # type: ignore[arg-type]
    assert len(notes) == 1 and "line 3" in notes[0]
    assert _answered(observations) == {"b1"}


def test_a_result_for_a_call_never_made_is_a_note(tmp_path: Path) -> None:
    orphan = event("tool.execution_complete", {"toolCallId": "zz", "success": True})
    observations, notes = _read(write(tmp_path, session(orphan)))
    assert len(notes) == 1 and "zz" in notes[0] and _answered(observations) == {"b1"}


def test_a_huge_output_line_is_read_and_bounded(tmp_path: Path) -> None:
    huge = "y" * (12 * 1024 * 1024)
    observations, _notes = _read(write(tmp_path, session(output=huge)))
    (result,) = [o for o in observations if isinstance(o, ToolResult)]
    assert result.tool_call_id == "b1" and len(result.text) < len(huge)


def test_escapes_and_planted_secrets_never_reach_a_surface(tmp_path: Path) -> None:
    token, key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "AKIAQ3EXAMPLE7ZX9KT2"
    hostile = "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07 \x1b[2J"
    lines = session(command=f"echo {hostile} {token}", output=f"{hostile} aws={key}")
    observations, _notes = _read(write(tmp_path, lines))
    for surface, shown in every_surface(observations).items():
        assert "evil.example/\x07" not in shown and "\x1b[2J" not in shown, surface
        assert token not in shown and key not in shown, surface


def test_a_title_the_cli_gave_restates_the_run(tmp_path: Path) -> None:
    titled = event("session.title_changed", {"title": "Fix the build"})
    observations, _notes = _read(write(tmp_path, session(titled)))
    titles = [o.title for o in observations if isinstance(o, RunStarted)]
    assert titles[-1] == "Fix the build" and observations[0].cwd == "/w/proj"  # type: ignore[union-attr]


def test_only_copilot_claims_its_log_and_it_claims_no_other_agents() -> None:
    (real,) = session_files(REAL)
    head = real.read_bytes()[:65536]
    assert sniff(head)
    assert not any(other.sniff(head) for other in (claude_code, codex, gemini, qwen))
    others = [
        p for p in Path(__file__).parents[1].glob("[cgq]*/real/**/*.jsonl") if REAL not in p.parents
    ]
    assert (
        len({p.relative_to(REAL.parents[2]).parts[0] for p in others}) >= 3
    )  # Claude Code's, Codex's, Qwen Code's, ...
    for other in others:
        assert not sniff(other.read_bytes()[:65536]), other


def test_flat_and_folder_sessions_are_listed_newest_first(tmp_path: Path) -> None:
    folder = write(tmp_path / "session-state", session())
    flat = tmp_path / "session-state" / "3a1b2c3d-1111-4222-8333-444455556666.jsonl"
    flat.write_bytes(folder.read_bytes())
    (tmp_path / "session-state" / "notes.jsonl").write_bytes(folder.read_bytes())
    assert set(session_files(tmp_path / "session-state")) == {folder, flat}


def test_a_file_that_grows_after_finish_reopens_the_same_run() -> None:
    lines = next(REAL.rglob("*.jsonl")).read_bytes().splitlines()
    half = next(i for i, line in enumerate(lines) if b'"toolCallId":"c3"' in line)
    mapper = CopilotMapper()
    first = [o for line in lines[:half] for o in mapper.feed_line(line)] + mapper.finish()
    rest = [o for line in lines[half:] for o in mapper.feed_line(line)] + mapper.finish()
    runs = [
        (type(o).__name__, o.run_id) for o in first + rest if isinstance(o, RunStarted | RunEnded)
    ]
    (run_id,) = {run for _kind, run in runs}
    assert runs == [("RunStarted", run_id), ("RunEnded", run_id)] * 2
    assert _answered(first + rest) == {"c1", "c2", "c3", "c4", "c5", "s1"}
