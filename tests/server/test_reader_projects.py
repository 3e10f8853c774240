"""Every reader names its session's folder: the index groups Gemini CLI, Qwen Code,
OpenCode and pi sessions under their project, as it does Claude Code's and Codex's.

Each real CLI's stored session (the fixtures under tests/hosts/<agent>/, pi run
here) is read by ``toolview show --json``; its run-started carries the folder the
agent worked in, and posted to the server the thread's card (``/api/threads``) is
grouped under that folder's name.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from starlette.testclient import TestClient

from toolview.contract import RunStarted, decode_observation
from toolview.hosts.pi import load_observations

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "hosts"))
from pi.conftest import PI_BIN, run_scripted  # noqa: E402
from pi.model_server import Turn  # noqa: E402

from scripted_agents.surfaces import toolview  # noqa: E402

GEMINI = TESTS / "hosts" / "gemini" / "real" / "tmp" / "workspace"
QWEN = TESTS / "hosts" / "qwen" / "real" / "projects"
# each real CLI's session, and the folder it ran in (what the CLI itself wrote down)
SESSIONS = {
    "gemini": (
        GEMINI / "chats" / "session-2026-12-07T22-48-2d58b9a5.jsonl",
        "/tmp/gemini-fixtures-1zjs0ivz/workspace",  # its .project_root
    ),
    "qwen": (next(QWEN.rglob("*.jsonl")), "/tmp/qwen-run-y67cpd3y/workspace"),
    "opencode": (
        TESTS / "hosts" / "opencode" / "real" / "opencode.db",
        "/tmp/opencode-run-ht5rsv5_/workspace",  # its session row's directory
    ),
}


def _shown(session: Path) -> bytes:
    shown = toolview("show", "--json", str(session))
    assert shown.returncode == 0, shown.stderr
    return shown.stdout


def _first_run(lines: bytes) -> RunStarted:
    return next(o for o in map(decode_observation, lines.splitlines()) if isinstance(o, RunStarted))


@pytest.mark.parametrize("agent", sorted(SESSIONS))
def test_the_run_started_names_the_folder_the_agent_worked_in(agent: str) -> None:
    session, folder = SESSIONS[agent]
    assert _first_run(_shown(session)).cwd == folder


def test_opencode_s_own_session_title_is_the_run_s_title() -> None:
    assert _first_run(_shown(SESSIONS["opencode"][0])).title == "Scripted steps"


def test_the_index_groups_each_agent_s_session_under_its_project(client: TestClient) -> None:
    for agent, (session, _) in SESSIONS.items():
        client.post("/api/threads", json={"id": agent}).raise_for_status()
        posted = client.post(
            f"/api/threads/{agent}/observations",
            content=_shown(session),
            headers={"content-type": "application/x-ndjson"},
        )
        posted.raise_for_status()
    cards = client.get("/api/threads").json()
    cards = cards["threads"] if isinstance(cards, dict) else cards
    assert {c["id"]: c["project"] for c in cards} == dict.fromkeys(SESSIONS, "workspace")


def test_a_pi_session_file_s_header_names_its_folder(tmp_path: Path) -> None:
    run = run_scripted(str(PI_BIN), tmp_path, [Turn(text="ok")], prompt="hello")
    starts = [
        o for o in load_observations(run.session_file.read_bytes()) if isinstance(o, RunStarted)
    ]
    assert starts and {s.cwd for s in starts} == {str(run.workspace)}


@pytest.mark.parametrize("agent", sorted(SESSIONS))
def test_sessions_lists_each_under_its_project(agent: str) -> None:
    """``sessions``' project is the run's folder's name (OpenCode's is not the database's)."""
    session, _ = SESSIONS[agent]
    root = {"gemini": GEMINI.parent, "qwen": QWEN, "opencode": session.parent}[agent]
    listed = toolview("sessions", "--json", "--no-cache", f"--{agent}", str(root))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    assert [(r["agent"], r["project"]) for r in rows] == [(agent, "workspace")]


def test_opencode_s_placeholder_title_is_no_title(tmp_path: Path) -> None:
    """Before it names a session OpenCode calls it ``New session - <time>``: not a title."""
    database = tmp_path / "opencode.db"
    shutil.copy(SESSIONS["opencode"][0], database)
    with closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE session SET title = 'New session - 2026-12-07T23:27:52.183Z'")
    started = _first_run(_shown(database))
    assert started.title is msgspec.UNSET and started.cwd == SESSIONS["opencode"][1]
