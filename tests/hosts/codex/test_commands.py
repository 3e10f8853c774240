"""The real Codex rollouts through the ``toolview`` command, as a user runs it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from scripted_agents.codex_session import SECRETS
from toolview.contract import ToolCall, decode_observation
from toolview.hosts.codex import session_files

CALLS = {
    "call_big", "call_fail", "call_patch", "call_plan", "call_search", "call_echo",
    "call_image", "call_spawn", "call_wait", "call_sub_wc", "call_sleep", "call_hang",
}  # fmt: skip
HEADER = re.compile(r"^[ \t│]*[✓✗◌?∅⊘⏱■•] ", re.MULTILINE)


def toolview(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, check=False)


def test_show_json_then_check_strict(fixture_sessions: Path) -> None:
    (main,) = session_files(fixture_sessions)
    shown = toolview("show", "--json", str(main))
    assert shown.returncode == 0, shown.stderr
    checked = toolview("check", "--strict", "-", stdin=shown.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    observations = [decode_observation(line) for line in shown.stdout.splitlines()]
    assert {o.tool_call_id for o in observations if isinstance(o, ToolCall)} == CALLS
    assert [s for s in SECRETS if s.encode() in shown.stdout] == []


def test_show_on_the_sessions_folder_draws_every_call(fixture_sessions: Path) -> None:
    shown = toolview("show", "--surface", "text", str(fixture_sessions))
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout.decode()
    assert len(HEADER.findall(out)) == len(CALLS)
    assert [s for s in SECRETS if s in out] == []


def test_sessions_lists_the_main_session_only(fixture_sessions: Path) -> None:
    listed = toolview("sessions", "--json", "--codex", str(fixture_sessions))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    assert [(r["agent"], r["id"], r["calls"], r["subAgentCalls"], r["failures"]) for r in rows] == [
        ("codex", session_files(fixture_sessions)[0].stem[-36:], 11, 1, 2)
    ]
    # the sub-agent's rollout is not a session of its own: its call counts in the main
    # session's, apart (as show says: 11 calls of its own, +1 in sub-agents)
