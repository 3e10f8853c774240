"""The REAL Qwen Code CLI (0.24.4) against the scripted model: what it writes maps.

One ``qwen --yolo`` run (thinking, a shell call that succeeds, one that exits 3
with a planted key in its command, a file written then read, a todo list, a
closing answer); its chat file is read back through the host, drawn on every
surface, checked, and listed by ``sessions``.
"""

from __future__ import annotations

import json

import msgspec

from scripted_agents.surfaces import drawn_everywhere, shown_and_checked, toolview
from toolview.contract import Message, Observation, ToolCall, ToolResult, Usage
from toolview.hosts.qwen import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote

from .qwen_cli import MODEL, SECRET, TASK, QwenRun

# each tool the script calls, the kind its result is drawn as
KINDS = {
    "run_shell_command": "shell",
    "write_file": "diff",
    "read_file": "file",
    "todo_write": "todo",
}
# a string each call's drawing must show
DRAWN = ("hello-from-shell", "exit 3", "+beta", "notes.txt", "review", "All steps are done.")


def _stream(run: QwenRun) -> list[Observation | SessionNote]:
    (chat,) = session_files(run.projects)
    return list(load_observations(chat))


def _observations(run: QwenRun) -> list[Observation]:
    return [o for o in _stream(run) if not isinstance(o, SessionNote)]


def test_the_cli_ran_offline_and_wrote_one_chat(real_run: QwenRun) -> None:
    assert len(real_run.script.requests) == 6  # every scripted turn was asked for, here
    (chat,) = real_run.chats()
    assert sniff(chat.read_bytes()[:4096]) and session_files(real_run.projects) == [chat]
    assert (real_run.workspace / "notes.txt").read_text() == "alpha\nbeta\n"


def test_every_call_is_answered_with_its_kind_and_the_failed_command_fails(
    real_run: QwenRun,
) -> None:
    assert [o for o in _stream(real_run) if isinstance(o, SessionNote)] == []
    observations = _observations(real_run)
    calls = [o for o in observations if isinstance(o, ToolCall)]
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert len(calls) == 5 and set(results) == {c.tool_call_id for c in calls}
    for call in calls:
        result = results[call.tool_call_id]
        assert result.descriptor is not None, call.tool_name
        assert result.descriptor.kind == KINDS[call.tool_name], call.tool_name
    shells = [results[c.tool_call_id] for c in calls if c.tool_name == "run_shell_command"]
    assert [r.descriptor.props["exitCode"] for r in shells if r.descriptor] == [0, 3]
    assert [r.is_error for r in shells] == [False, True]
    assert [r.is_error for r in results.values()].count(True) == 1
    (todo,) = [r for r in results.values() if r.tool_name == "todo_write"]
    assert todo.descriptor is not None
    assert [i["status"] for i in todo.descriptor.props["items"]] == ["completed", "in_progress"]


def test_thinking_usage_with_model_and_times(real_run: QwenRun) -> None:
    observations = _observations(real_run)
    messages = [
        msgspec.structs.replace(o, at=msgspec.UNSET) for o in observations if isinstance(o, Message)
    ]
    assert messages == [
        Message(role="user", text=TASK),
        Message(role="thinking", text="List the workspace first."),
        Message(role="assistant", text="All steps are done."),
    ]
    usage = [o for o in observations if isinstance(o, Usage)]
    assert len(usage) == 6 and {u.model for u in usage} == {MODEL}
    assert all(u.input_tokens == 10 and u.output_tokens >= 5 for u in usage)
    assert all(isinstance(o.at, str) for o in observations if isinstance(o, ToolCall | ToolResult))


def test_every_call_drawn_on_every_surface_secret_redacted(real_run: QwenRun) -> None:
    drawn_everywhere(_observations(real_run), DRAWN, (SECRET,))


def test_show_json_then_check_strict(real_run: QwenRun) -> None:
    (chat,) = session_files(real_run.projects)
    observations = shown_and_checked(chat)
    assert len([o for o in observations if isinstance(o, ToolCall)]) == 5


def test_sessions_lists_the_chat_with_its_counts(real_run: QwenRun) -> None:
    listed = toolview("sessions", "--json", "--qwen", str(real_run.projects))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    rows = [r for r in rows if r["agent"] == "qwen"]
    (chat,) = session_files(real_run.projects)
    facts = [(r["id"], r["calls"], r["subAgentCalls"], r["failures"]) for r in rows]
    assert facts == [(chat.stem, 5, 0, 1)]
    assert rows[0]["project"] == "workspace"
    assert rows[0]["firstPrompt"] == TASK
