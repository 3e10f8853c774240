"""Qwen Code's sub-agents: the REAL CLI (0.24.4) runs an ``agent`` call whose sub-agent
calls a tool; that call is nested under the ``agent`` call everywhere, and counted as a
sub-agent's. A hostile ``meta.json`` links nothing and its chat is said, not dropped."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import msgspec
import pytest
from pi.model_server import Call, Turn

from scripted_agents.surfaces import every_surface, shown_and_checked, toolview
from toolview.contract import Observation, ToolCall, ToolResult
from toolview.hosts.qwen import load_observations, session_files
from toolview.hosts.sessions import SessionNote

from .qwen_cli import QWEN_BIN, QwenRun, run_qwen

AGENT_ARGS = {
    "description": "look around",
    "prompt": "Run echo from-the-sub-agent.",
    "subagent_type": "general-purpose",
    "run_in_background": False,
}
TURNS = [
    Turn(calls=(Call("a1", "agent", AGENT_ARGS),)),
    Turn(calls=(Call("s1", "run_shell_command", {"command": "echo from-the-sub-agent"}),)),
    Turn(calls=(Call("s2", "run_shell_command", {"command": "echo sub-failing; exit 3"}),)),
    Turn(text="The sub-agent is done."),
    Turn(text="All done."),
]


@pytest.fixture(scope="module")
def agent_run(tmp_path_factory: pytest.TempPathFactory) -> QwenRun:
    if not QWEN_BIN.exists():
        pytest.fail(f"Qwen Code is not installed under {QWEN_BIN}: run scripts/bootstrap")
    run = run_qwen(tmp_path_factory.mktemp("qwen-agent"), list(TURNS))
    assert run.returncode == 0, run.stderr[-4000:]
    assert len(run.script.requests) == 5  # the parent's two turns and the sub-agent's three
    return run


def _stream(chat: Path) -> list[Observation | SessionNote]:
    return list(load_observations(chat))


def test_the_sub_agents_call_is_nested_under_the_agent_call(agent_run: QwenRun) -> None:
    (chat,) = session_files(agent_run.projects)
    stream = _stream(chat)
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    calls = {o.tool_call_id: o for o in stream if isinstance(o, ToolCall)}
    assert set(calls) == {"a1", "s1", "s2"}
    assert calls["a1"].parent_call_id is msgspec.UNSET
    assert calls["s1"].parent_call_id == calls["s2"].parent_call_id == "a1"
    results = {o.tool_call_id: o for o in stream if isinstance(o, ToolResult)}
    assert {k: (r.parent_call_id, r.is_error) for k, r in results.items()} == {
        "s1": ("a1", False),
        "s2": ("a1", True),  # no status in a sub-agent's record: its "Exit Code: 3" says
        "a1": (msgspec.UNSET, False),
    }
    order = [o.tool_call_id for o in stream if isinstance(o, ToolCall | ToolResult)]
    assert order == ["a1", "s1", "s1", "s2", "s2", "a1"]  # right after the call that ran it
    shown = every_surface([o for o in stream if not isinstance(o, SessionNote)])
    for surface in ("text", "html"):  # drawn inside the agent call: before its answer
        text = shown[surface]
        sub, answer = text.find("from-the-sub-agent"), text.rfind("The sub-agent is done.")
        assert 0 <= text.find("look around") < sub < answer, surface


def test_show_json_nests_them_and_check_strict_passes(agent_run: QwenRun) -> None:
    (chat,) = session_files(agent_run.projects)
    shown = shown_and_checked(chat)
    nested = {o.tool_call_id: o.parent_call_id for o in shown if isinstance(o, ToolCall)}
    assert nested == {"a1": msgspec.UNSET, "s1": "a1", "s2": "a1"}


def test_sessions_counts_the_sub_agents_call(agent_run: QwenRun) -> None:
    listed = toolview("sessions", "--json", "--qwen", str(agent_run.projects))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    (row,) = [r for r in rows if r["agent"] == "qwen"]
    assert (row["calls"], row["subAgentCalls"], row["failures"]) == (1, 2, 0)
    assert row["subAgentFailures"] == 1


def _copied(run: QwenRun, tmp_path: Path) -> tuple[Path, Path]:
    """The run's projects copied for a test to spoil: its chat and the sub-agent's meta."""
    projects = tmp_path / "projects"
    shutil.copytree(run.projects, projects)
    (chat,) = session_files(projects)
    (meta,) = projects.rglob("agent-*.meta.json")
    return chat, meta


def test_a_hostile_meta_file_links_nothing_and_its_chat_is_said(
    agent_run: QwenRun, tmp_path: Path
) -> None:
    chat, meta = _copied(agent_run, tmp_path)
    sub_chat = meta.with_name(meta.name.removesuffix(".meta.json") + ".jsonl")
    meta.write_text("{not json")  # broken: nothing is linked
    stream = _stream(chat)
    assert {"s1", "s2"}.isdisjoint({o.tool_call_id for o in stream if isinstance(o, ToolCall)})
    notes = [o.text for o in stream if isinstance(o, SessionNote)]
    assert notes == [f"the sub-agent chat {sub_chat.name}: no call here ran it (not nested)"]
    escape = tmp_path / "x.jsonl"
    shutil.copy(sub_chat, escape)  # where a path in agentId would lead
    meta.write_text(json.dumps({"agentId": "../../../x", "toolUseId": "a1"}))
    sub_chat.write_text("")  # its own chat is empty: nothing may come from elsewhere
    stream = _stream(chat)
    assert {o.tool_call_id for o in stream if isinstance(o, ToolCall)} == {"a1"}
    assert [o for o in stream if isinstance(o, SessionNote)] == []


def test_a_fifo_or_an_oversized_meta_file_links_nothing_and_never_blocks(
    agent_run: QwenRun, tmp_path: Path
) -> None:
    chat, meta = _copied(agent_run, tmp_path)
    link = json.loads(meta.read_text())
    meta.write_text(json.dumps({**link, "pad": "x" * 70_000}))  # over the 64 KiB read
    notes = [o.text for o in _stream(chat) if isinstance(o, SessionNote)]
    assert len(notes) == 1 and "no call here ran it" in notes[0]
    meta.unlink()
    os.mkfifo(meta)  # a plain open would wait for a writer for ever
    notes = [o.text for o in _stream(chat) if isinstance(o, SessionNote)]
    assert len(notes) == 1 and "no call here ran it" in notes[0]
