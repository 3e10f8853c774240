"""The REAL Gemini CLI (0.61.0) against the scripted Gemini server: what it writes maps.

One ``gemini -p`` run (thinking, a shell call that succeeds, one that exits 3 with a
planted key on stderr, a file written, read and found (glob), a todo list, a ``generalist``
sub-agent that runs a command, a closing answer); its chat files are read back
through the host, drawn on every surface, checked, and listed by ``sessions``.
"""

from __future__ import annotations

import json

import msgspec

from scripted_agents.codex_session import SECRETS
from scripted_agents.gemini_cli import SUB_TASK, GeminiRun
from scripted_agents.surfaces import drawn_everywhere, shown_and_checked, toolview
from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    ToolCall,
    ToolResult,
    Usage,
)
from toolview.hosts.gemini import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote

# each tool the script calls (main and sub-agent), the kind its result is drawn as
KINDS = {
    "run_shell_command": "shell",
    "write_file": "diff",
    "read_file": "file",
    "write_todos": "todo",
    "glob": "table",
    "invoke_agent": None,
    "complete_task": None,
}
# a string each call's drawing must show
DRAWN = ("hello-from-shell", "exit 3", "+beta", "notes.txt", "review", "sub-agent-ran", "counted")


def _stream(run: GeminiRun) -> list[Observation | SessionNote]:
    (main,) = session_files(run.home / ".gemini" / "tmp")
    return list(load_observations(main))


def _observations(run: GeminiRun) -> list[Observation]:
    return [o for o in _stream(run) if not isinstance(o, SessionNote)]


def test_the_cli_ran_offline_and_wrote_a_main_chat_and_a_sub_agents(real_run: GeminiRun) -> None:
    assert len(real_run.script.requests) == 10  # 8 main turns + 2 sub-agent turns, all here
    chats = real_run.chats()
    assert len(chats) == 2 and all(sniff(path.read_bytes()[:4096]) for path in chats)
    (main,) = session_files(real_run.home / ".gemini" / "tmp")
    assert main.name.startswith("session-") and main in chats
    assert (real_run.workspace / "notes.txt").read_text() == "alpha\nbeta\n"


def test_every_call_is_answered_with_its_kind_and_the_failed_command_fails(
    real_run: GeminiRun,
) -> None:
    stream = _stream(real_run)
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    observations = _observations(real_run)
    calls = [o for o in observations if isinstance(o, ToolCall)]
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert len(calls) == 9 and set(results) == {c.tool_call_id for c in calls}
    for call in calls:
        result = results[call.tool_call_id]
        kind = result.descriptor.kind if result.descriptor else None
        assert kind == KINDS[call.tool_name], call.tool_name
    shells = [results[c.tool_call_id] for c in calls if c.tool_name == "run_shell_command"]
    codes = [r.descriptor.props["exitCode"] for r in shells if r.descriptor]
    assert codes == [0, 3, 0]  # the CLI recorded all three as "success"
    assert [r.is_error for r in shells] == [False, True, False]
    assert "failing aws=" in shells[1].descriptor.props["stdout"]  # type: ignore[union-attr]


def test_the_sub_agent_is_nested_under_its_call(real_run: GeminiRun) -> None:
    observations = _observations(real_run)
    (spawn,) = [
        o for o in observations if isinstance(o, ToolCall) and o.tool_name == "invoke_agent"
    ]
    marked = [o for o in observations if isinstance(o.parent_call_id, str)]
    assert {o.parent_call_id for o in marked} == {spawn.tool_call_id}
    names = [o.tool_name for o in marked if isinstance(o, ToolCall)]
    assert names == ["run_shell_command", "complete_task"]
    assert any(isinstance(o, Message) and o.text == SUB_TASK for o in marked)
    assert any(isinstance(o, RunEnded) and o.outcome == "completed" for o in marked)
    # together, after the spawning call and before its result
    first = observations.index(marked[0])
    assert observations[first : first + len(marked)] == marked
    assert observations.index(spawn) == first - 1
    answer = observations[first + len(marked)]
    assert isinstance(answer, ToolResult) and answer.tool_call_id == spawn.tool_call_id


def test_thinking_usage_and_times(real_run: GeminiRun) -> None:
    observations = _observations(real_run)
    assert Message(role="thinking", text="List the workspace first.") in [
        msgspec.structs.replace(o, at=msgspec.UNSET) for o in observations if isinstance(o, Message)
    ]
    usage = [o for o in observations if isinstance(o, Usage)]
    assert len(usage) == 10 and {u.model for u in usage} == {"gemini-2.5-flash"}
    assert all(u.input_tokens == 150 and u.output_tokens == 25 for u in usage)
    assert all(isinstance(o.at, str) for o in observations if not isinstance(o, RunEnded))


def test_every_call_drawn_on_every_surface_secrets_redacted(real_run: GeminiRun) -> None:
    drawn_everywhere(_observations(real_run), DRAWN, SECRETS)


def test_show_json_then_check_strict(real_run: GeminiRun) -> None:
    (main,) = session_files(real_run.home / ".gemini" / "tmp")
    observations = shown_and_checked(main)
    assert len([o for o in observations if isinstance(o, ToolCall)]) == 9


def test_sessions_lists_the_main_chat_with_its_facts(real_run: GeminiRun) -> None:
    root = real_run.home / ".gemini" / "tmp"
    listed = toolview("sessions", "--json", "--gemini", str(root))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    (main,) = session_files(root)
    facts = [(r["agent"], r["id"], r["calls"], r["subAgentCalls"], r["failures"]) for r in rows]
    assert facts == [("gemini", main.stem[-8:], 7, 2, 1)]
    assert rows[0]["project"] == "workspace"
    assert rows[0]["firstPrompt"] == "Work through the scripted steps."
