"""The REAL OpenCode CLI (1.18.33) against the scripted model server: what it writes maps.

One ``opencode run`` (a shell call that succeeds, one that exits 3, a file written, read
and edited, a todo list, a ``general`` sub-agent that runs a command, a closing answer);
its database is read back through the host, drawn on every surface, checked, and listed
by ``sessions``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
from pi.model_server import Turn

from scripted_agents.opencode_cli import SUB_TASK, OpenCodeRun, run_opencode
from scripted_agents.surfaces import drawn_everywhere
from toolview.contract import Message, Observation, ToolCall, ToolResult, Usage, decode_observation
from toolview.contract.props import validate_props
from toolview.hosts.opencode import load_observations
from toolview.hosts.sessions import SessionNote

KINDS = {"bash": "shell", "write": "file", "read": "file", "edit": "diff", "todowrite": "todo",
         "task": None}  # fmt: skip
DRAWN = ("hello-from-shell", "exit 3", "+gamma", "notes.txt", "review", "sub-agent-ran", "counted")


def _observations(run: OpenCodeRun) -> list[Observation]:
    stream = list(load_observations(run.database))
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    return [o for o in stream if not isinstance(o, SessionNote)]


def toolview(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, check=False)


def test_every_call_is_answered_with_its_kind_and_the_failed_command_fails(
    real_run: OpenCodeRun,
) -> None:
    assert len([r for r in real_run.script.requests if r.get("tools")]) == 10
    observations = _observations(real_run)
    calls = [o for o in observations if isinstance(o, ToolCall)]
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert [c.tool_call_id for c in calls] == ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "s1"]
    assert set(results) == {c.tool_call_id for c in calls}
    for call in calls:
        result = results[call.tool_call_id]
        assert (result.descriptor.kind if result.descriptor else None) == KINDS[call.tool_name]
    shells = [results[c.tool_call_id] for c in calls if c.tool_name == "bash"]
    assert [r.descriptor.props["exitCode"] for r in shells if r.descriptor] == [0, 3, 0]
    assert [r.is_error for r in shells] == [False, True, False]  # OpenCode: all "completed"


def test_the_sub_agent_is_nested_under_its_call_and_usage_names_the_model(
    real_run: OpenCodeRun,
) -> None:
    observations = _observations(real_run)
    marked = [o for o in observations if isinstance(o.parent_call_id, str)]
    assert {o.parent_call_id for o in marked} == {"c7"}
    assert [o.tool_call_id for o in marked if isinstance(o, ToolCall)] == ["s1"]
    assert any(isinstance(o, Message) and o.text == SUB_TASK for o in marked)
    usage = [o for o in observations if isinstance(o, Usage)]
    assert len(usage) == 10 and {u.model for u in usage} == {"scripted/scripted-model"}
    assert all((u.input_tokens, u.output_tokens) == (10, 5) for u in usage)


def test_every_call_drawn_on_every_surface(real_run: OpenCodeRun) -> None:
    drawn_everywhere(_observations(real_run), DRAWN)


def test_show_json_then_check_strict_and_the_database_is_untouched(real_run: OpenCodeRun) -> None:
    db = real_run.database
    files = sorted(db.parent.glob("opencode.db*"))
    before = {path.name: path.read_bytes() for path in files}
    shown = toolview("show", "--json", str(db))
    assert shown.returncode == 0, shown.stderr
    assert {path.name: path.read_bytes() for path in files} == before
    checked = toolview("check", "--strict", "-", stdin=shown.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = [decode_observation(line) for line in shown.stdout.splitlines()]
    assert len([o for o in lines if isinstance(o, ToolCall)]) == 8
    for observation in lines:
        descriptor = getattr(observation, "descriptor", msgspec.UNSET)
        if descriptor is not msgspec.UNSET:
            validate_props(descriptor.kind, descriptor.props)


def test_sessions_lists_the_database_with_its_facts(real_run: OpenCodeRun) -> None:
    listed = toolview("sessions", "--json", "--opencode", str(real_run.database.parent))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    facts = [(r["agent"], r["calls"], r["subAgentCalls"], r["failures"]) for r in rows]
    assert facts == [("opencode", 7, 1, 1)]


def test_two_real_runs_are_two_sessions_each_opened_by_its_id(tmp_path: Path) -> None:
    runs = [run_opencode(tmp_path, [Turn(text=f"answer {n}")]) for n in (1, 2)]
    assert [run.returncode for run in runs] == [0, 0], runs[-1].stderr[-4000:]
    folder = runs[-1].database.parent
    listed = toolview("sessions", "--json", "--no-cache", "--opencode", str(folder))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    assert [row["agent"] for row in rows] == ["opencode", "opencode"]
    assert all(row["id"].startswith("ses_") for row in rows) and rows[0]["id"] != rows[1]["id"]
    for row, answer in zip(rows, ("answer 2", "answer 1"), strict=True):  # newest first
        shown = toolview("show", "--json", "--opencode", str(folder), row["id"])
        texts = [o.text for o in map(decode_observation, shown.stdout.splitlines())
                 if isinstance(o, Message) and o.role == "assistant"]  # fmt: skip
        assert texts == [answer], shown.stderr
