"""The real Claude Code 2.1.197 session (real/README.md) read back: every call mapped, safely.

The committed files were written by the real CLI (``test_real_cli.py`` checks
they still match what it writes); one test also maps a fresh run of the CLI,
so a CLI upgrade that changes the files shows up here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolview.contract import (
    Observation,
    RunEnded,
    Thread,
    ToolCall,
    ToolResult,
    Usage,
    decode_observation,
    encode_observation,
    validate_props,
)
from toolview.hosts.claude_code import ClaudeCodeMapper, SessionNote, load_observations, sniff
from toolview.hosts.sessions import LineSplitter
from toolview.render import Limits, html, markdown, terminal, text

from .claude_cli import ClaudeRun
from .conftest import TASKS_SESSION
from .real_session import AWS_KEY, AWS_SECRET, CALLS, GITHUB_TOKEN, SUB_CALLS
from .tasks_session import TASK_CALLS

KINDS = {
    "toolu_01todo": "todo",
    "toolu_02seq": "shell",
    "toolu_03fail": "shell",  # failed, it keeps its command, output and exit code
    "toolu_04cat": "shell",
    "toolu_05read": "file",
    "toolu_06write": "diff",
    "toolu_07edit": "diff",
    "toolu_08grep": "table",
    "toolu_09glob": "table",
    "toolu_10png": "image",
    "toolu_11big": "shell",
    "toolu_12agent": "markdown",
    "toolu_13todo": "todo",
    "toolu_s1ls": "shell",
}
WIDE = Limits(max_lines=100_000, max_chars=10_000_000, max_rows=10_000)


def observations(path: Path) -> list[Observation]:
    items = list(load_observations(path))
    assert [i for i in items if isinstance(i, SessionNote)] == []
    return [i for i in items if not isinstance(i, SessionNote)]


def check_every_call_is_mapped(found: list[Observation]) -> None:
    calls = {o.tool_call_id: o for o in found if isinstance(o, ToolCall)}
    results = {o.tool_call_id: o for o in found if isinstance(o, ToolResult)}
    assert [(c, calls[c].tool_name) for c, _ in CALLS] == list(CALLS)
    assert set(calls) == set(results) == {c for c, _ in CALLS + SUB_CALLS}
    for call_id, kind in KINDS.items():
        descriptor = results[call_id].descriptor
        assert descriptor and descriptor.kind == kind, (call_id, descriptor)
        validate_props(kind, descriptor.props)
    failed = results["toolu_03fail"]
    assert failed.is_error and failed.text.startswith("ls: cannot access '/no/such/dir'")
    assert failed.descriptor and validate_props("shell", failed.descriptor.props).exit_code == 2
    assert all(not r.is_error for c, r in results.items() if c != "toolu_03fail")


def test_the_real_session_maps_every_call_none_skipped(fixture_session: Path) -> None:
    assert sniff(fixture_session.read_bytes()[:4096])
    check_every_call_is_mapped(observations(fixture_session))


def test_a_fresh_run_of_the_real_cli_maps_the_same(real_run: ClaudeRun) -> None:
    check_every_call_is_mapped(observations(real_run.session_file()))


def test_the_sub_agent_is_nested_under_its_agent_call(fixture_session: Path) -> None:
    found = observations(fixture_session)
    marked = [o for o in found if o.parent_call_id]
    assert {o.parent_call_id for o in marked} == {"toolu_12agent"}
    assert [o.tool_call_id for o in marked if isinstance(o, ToolCall)] == ["toolu_s1ls"]
    agent = next(
        o for o in found if isinstance(o, ToolResult) and o.tool_call_id == "toolu_12agent"
    )
    assert found.index(marked[-1]) < found.index(agent)
    assert agent.text == "There are 2 Python files: app.py and util.py."


def test_the_shapes_the_cli_writes(fixture_session: Path) -> None:
    results = {
        o.tool_call_id: o for o in observations(fixture_session) if isinstance(o, ToolResult)
    }

    def props(call_id: str) -> Any:
        descriptor = results[call_id].descriptor
        assert descriptor
        return validate_props(descriptor.kind, descriptor.props)

    seq = props("toolu_02seq")
    assert seq.exit_code == 0 and seq.stdout.split("\n") == [str(n) for n in range(1, 3001)]
    read = props("toolu_05read")
    assert (
        read.start_line == 1 and "\t" not in read.content and read.content.startswith("import os")
    )
    assert props("toolu_06write").diff.startswith("--- /dev/null\n")
    assert "-status: draft\n+status: final" in props("toolu_07edit").diff
    assert props("toolu_08grep").rows == [
        ["app.py", 6, "def main():"],
        ["util.py", 1, "def helper():"],
    ]
    big = results["toolu_11big"]  # the whole output, from tool-results/, not the 30,000-char head
    assert len(big.text) == 35109 and big.text.endswith(AWS_SECRET + "\n")
    assert props("toolu_11big").stdout == big.text
    items = props("toolu_13todo").items
    assert [i.status for i in items] == ["completed"] * len(items)


def test_usage_once_per_model_turn_and_a_completed_run(fixture_session: Path) -> None:
    found = observations(fixture_session)
    usage = [o for o in found if isinstance(o, Usage)]
    main = [u for u in usage if not u.parent_call_id]
    lines = fixture_session.read_text().splitlines()
    turns = {line.split('"id":"', 1)[1][:40] for line in lines if '"type":"assistant"' in line}
    assert len(main) == len(turns)
    assert len([u for u in usage if u.parent_call_id]) == 2
    ends = [o for o in found if isinstance(o, RunEnded)]
    main_ends = [e for e in ends if not e.parent_call_id]
    assert [e.outcome for e in main_ends] == ["completed"] and not main_ends[0].reason
    assert all(o.at for o in found), "every observation has its time"


def test_every_observation_round_trips_through_the_wire_form(fixture_session: Path) -> None:
    for observation in observations(fixture_session):
        assert decode_observation(encode_observation(observation)) == observation


@pytest.mark.parametrize("surface", ["text", "markdown", "html", "terminal"])
def test_planted_secrets_never_reach_a_rendered_surface(
    fixture_session: Path, surface: str
) -> None:
    thread = Thread.from_observations(observations(fixture_session))
    rendered = {
        "text": lambda: text.render_thread(thread, limits=WIDE),
        "markdown": lambda: markdown.render_thread(thread, limits=WIDE),
        "html": lambda: html.render_page(thread, limits=WIDE),
        "terminal": lambda: terminal.render_thread(thread, width=120, limits=WIDE),
    }[surface]()
    assert "104999" in rendered, "the stored output's tail was rendered"
    for secret in (AWS_KEY, AWS_SECRET, GITHUB_TOKEN):
        assert secret not in rendered


def test_the_real_tasks_session_maps_the_task_tools_to_the_board() -> None:
    found = observations(TASKS_SESSION)
    results = {o.tool_call_id: o for o in found if isinstance(o, ToolResult)}
    assert [c for c, _ in TASK_CALLS] == [o.tool_call_id for o in found if isinstance(o, ToolCall)]
    assert set(results) == {c for c, _ in TASK_CALLS}

    def board(call_id: str) -> list[tuple[str, str]]:
        descriptor = results[call_id].descriptor
        assert descriptor and descriptor.kind == "todo"
        return [(i.content, i.status) for i in validate_props("todo", descriptor.props).items]

    assert board("toolu_t1create") == [("Build", "pending")]
    assert board("toolu_t3update") == [("Build", "in_progress"), ("Test", "pending")]
    assert board("toolu_t7list") == [("Build", "completed"), ("Test", "pending")]
    background = results["toolu_t4bg"].descriptor
    assert background and background.kind == "shell"
    shell = validate_props("shell", background.props)
    assert shell.background_task_id and shell.exit_code is None
    for failed in ("toolu_t5missing", "toolu_t5edit"):
        assert results[failed].is_error and not results[failed].descriptor
    assert results["toolu_t5edit"].text == (
        "File has not been read yet. Read it first before writing to it."
    )


@pytest.mark.parametrize("chunk", [1, 97, 65536])
def test_a_growing_file_maps_like_the_finished_one(fixture_session: Path, chunk: int) -> None:
    """Bytes arriving in pieces (a half-written line held back) give the same observations."""
    data = fixture_session.read_bytes()
    whole = ClaudeCodeMapper()
    expected = [o for line in data.splitlines() if line for o in whole.feed_line(line)]
    growing, splitter = ClaudeCodeMapper(), LineSplitter()
    seen: list[Observation] = []
    for start in range(0, len(data), chunk):
        for line in splitter.feed(data[start : start + chunk]):
            seen.extend(growing.feed_line(line) if line.strip() else [])
    assert splitter.pending == b"" and seen == expected
    assert growing.finish() == whole.finish()
