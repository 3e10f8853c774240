"""``toolview doctor``: per agent, the record types no reader maps, counted, with a place.

Real child processes; ``HOME`` a temporary folder with a Claude Code session,
a Codex rollout (the real CLI's, from tests/hosts/codex/real) and a session of
the docs' tinyagent plug-in (``reader_plugins``), each with types planted.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from claude_sessions import session, write
from reader_plugins import install, tinyagent_session, toolview

from toolview.hosts.codex import session_files

ONE = "11111111-aaaa-4bbb-8ccc-000000000001"
CODEX = Path(__file__).parents[1] / "hosts" / "codex" / "real" / "sessions"


def _planted(kind: str) -> bytes:
    return json.dumps({"type": kind, "sessionId": ONE}).encode() + b"\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    lines = session(ONE, "hi", 2)
    lines[1:1] = [_planted("ai-title"), _planted("brand-new"), _planted("brand-new")]
    write(tmp_path / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl", lines)
    shutil.copytree(CODEX, tmp_path / ".codex" / "sessions")
    return tmp_path


def test_every_type_known_is_exit_0(home: Path) -> None:
    session_file = next((home / ".claude" / "projects").rglob("*.jsonl"))
    lines = session_file.read_bytes().splitlines(keepends=True)
    session_file.write_bytes(b"".join(line for line in lines if b"brand-new" not in line))
    done = toolview(home, None, "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    (claude,) = [line for line in lines if line.startswith("Claude Code ")]
    (codex,) = [line for line in lines if line.startswith("Codex ")]
    others = [
        line for line in lines if line not in (claude, codex)
    ]  # the readers with no home here
    assert others and all(": 0 sessions" in line for line in others), others
    assert claude.startswith(
        "Claude Code (claude-code): 1 sessions, 7 records"
    )  # 6 mapped, ai-title skipped
    assert claude.endswith("every record type is known")
    assert ", types checked against 2.1.197;" in claude  # the version its types come from
    assert codex.startswith("Codex (codex): 1 sessions") and "every record type" in codex


def test_an_unknown_type_is_counted_with_where_it_was_first_seen(home: Path) -> None:
    (rollout,) = session_files(home / ".codex" / "sessions")  # the main one; not its sub-agent's
    with rollout.open("ab") as out:
        out.write(b'{"type":"event_msg","payload":{"type":"thread_goal_updated"}}\n')
    done = toolview(home, None, "doctor", "--json")
    assert done.returncode == 1, done.stderr
    by_agent = {each["agent"]: each for each in map(json.loads, done.stdout.splitlines())}
    claude, codex = by_agent["claude-code"], by_agent["codex"]
    assert claude["unmapped"] == {
        "brand-new": {"count": 2, "first": f"{home}/.claude/projects/-work-proj/{ONE}.jsonl line 3"}
    }
    lines = len(rollout.read_bytes().splitlines())
    assert codex["unmapped"] == {
        "event_msg:thread_goal_updated": {"count": 1, "first": f"{rollout} line {lines}"}
    }


def test_a_plug_in_is_checked_and_a_broken_one_reported(home: Path) -> None:
    tinyagent_session(home / ".tinyagent" / "sessions" / "t.jsonl", b'{"type": "tiny.x"}')
    done = toolview(home, install(home / "site", broken=True), "doctor")
    assert done.returncode == 1
    text = done.stdout
    assert "Tiny Agent (tinyagent): 1 sessions, 6 records; 1 record types no reader maps:" in text
    assert "  tiny.x  1×  first at " in text and "t.jsonl line 3" in text
    assert "plug-in: reader plug-in 'broken'" in text


def test_a_hostile_type_name_is_cleaned(home: Path) -> None:
    write(home / ".claude" / "projects" / "p" / f"{ONE[:-1]}2.jsonl", [_planted("x\x1b[31my")])
    done = toolview(home, None, "doctor")
    assert "\x1b" not in done.stdout and "x" in done.stdout
