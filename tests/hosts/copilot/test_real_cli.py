"""The REAL GitHub Copilot CLI (1.0.102) against the scripted model: what it writes maps.

One ``copilot -p`` run offline (thinking and a shell call that succeeds, one that
exits 3 with a planted key in its command — recorded by the CLI as
``success: true`` —, a file created then viewed, a ``task`` sub-agent running a
command of its own, a closing answer); its ``events.jsonl`` is read back through
the host, drawn on every surface, checked, and listed by ``sessions``.
"""

from __future__ import annotations

import json

import msgspec

from scripted_agents.surfaces import drawn_everywhere, shown_and_checked, toolview
from toolview.contract import Message, Observation, ToolCall, ToolResult, Usage
from toolview.hosts.copilot import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote

from .copilot_cli import MODEL, SECRET, TASK, CopilotRun

# each call, the kind its result is drawn as (the sub-agent's answer keeps its text)
KINDS = {"c1": "shell", "c2": "shell", "c3": "diff", "c4": "file", "c5": None, "s1": "shell"}
# a string each call's drawing must show
DRAWN = (
    "hello-from-shell",
    "exit 3",
    "+beta",
    "notes.txt",
    "from-the-sub-agent",
    "All steps are done.",
)


def _stream(run: CopilotRun) -> list[Observation | SessionNote]:
    (log,) = session_files(run.state)
    return list(load_observations(log))


def _observations(run: CopilotRun) -> list[Observation]:
    return [o for o in _stream(run) if not isinstance(o, SessionNote)]


def test_the_cli_ran_offline_and_wrote_one_session(real_run: CopilotRun) -> None:
    assert len(real_run.script.requests) == 8  # every scripted turn was asked for, here
    (log,) = real_run.logs()
    assert sniff(log.read_bytes()[:4096]) and session_files(real_run.state) == [log]
    assert (real_run.workspace / "notes.txt").read_text() == "alpha\nbeta\n"


def test_every_call_answered_with_its_kind_the_failed_command_fails(real_run: CopilotRun) -> None:
    assert [o for o in _stream(real_run) if isinstance(o, SessionNote)] == []
    observations = _observations(real_run)
    calls = {o.tool_call_id: o for o in observations if isinstance(o, ToolCall)}
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert set(calls) == set(results) == set(KINDS)
    for call_id, kind in KINDS.items():
        descriptor = results[call_id].descriptor
        assert (descriptor.kind if descriptor else None) == kind, call_id
    assert {i: r.is_error for i, r in results.items()} == {i: i == "c2" for i in KINDS}
    shell = results["c2"].descriptor
    assert shell is not None and shell.props["exitCode"] == 3


def test_the_sub_agent_call_nests_under_its_task(real_run: CopilotRun) -> None:
    observations = _observations(real_run)
    nested = {o.tool_call_id: o.parent_call_id for o in observations if isinstance(o, ToolCall)}
    assert nested == {i: "c5" if i == "s1" else msgspec.UNSET for i in KINDS}
    inner = [o for o in observations if isinstance(o, Message) and o.parent_call_id == "c5"]
    assert [m.text for m in inner] == ["The sub-agent is done."]


def test_thinking_usage_with_model_and_times(real_run: CopilotRun) -> None:
    observations = _observations(real_run)
    top = [o for o in observations if isinstance(o, Message) and o.parent_call_id is msgspec.UNSET]
    assert [(m.role, m.text) for m in top] == [
        ("user", TASK),
        ("thinking", "List the workspace first."),
        ("assistant", "All steps are done."),
    ]
    usage = [o for o in observations if isinstance(o, Usage)]
    assert len(usage) == 8 and {u.model for u in usage} == {MODEL}
    assert all(u.input_tokens == 10 and u.output_tokens == 5 for u in usage)
    assert all(isinstance(o.at, str) for o in observations if isinstance(o, ToolCall | ToolResult))


def test_every_call_drawn_on_every_surface_secret_redacted(real_run: CopilotRun) -> None:
    drawn_everywhere(_observations(real_run), DRAWN, (SECRET,))


def test_show_json_then_check_strict(real_run: CopilotRun) -> None:
    (log,) = session_files(real_run.state)
    observations = shown_and_checked(log)
    assert len([o for o in observations if isinstance(o, ToolCall)]) == 6


def test_sessions_lists_the_session_with_its_facts(real_run: CopilotRun) -> None:
    listed = toolview("sessions", "--json", "--copilot", str(real_run.state))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    rows = [r for r in rows if r["agent"] == "copilot"]
    (log,) = session_files(real_run.state)
    facts = [(r["id"], r["calls"], r["subAgentCalls"], r["failures"]) for r in rows]
    assert facts == [(log.parent.name, 5, 1, 1)]
    assert rows[0]["project"] == "workspace"
    assert rows[0]["firstPrompt"] == TASK
    assert MODEL in json.dumps(rows[0])
