"""A real Claude Code session renders on every surface: every call drawn, secrets gone.

Run on the committed fixture (real/) and on a session the pinned CLI writes
now, through the host's loader, the render surfaces and the contract's
check — the whole path a user's ``toolview show`` takes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolview.cli.check_cmd import check_lines
from toolview.contract import (
    Observation,
    Thread,
    ToolCall,
    ToolResult,
    decode_observation,
    encode_observation,
)
from toolview.hosts.claude_code import load_observations
from toolview.hosts.sessions import SessionNote
from toolview.render.html import render_thread_html
from toolview.render.html.ids import ID_PREFIX, call_element_id
from toolview.render.html.subagent import SUBCALL_PREFIX
from toolview.render.markdown import render_thread as render_markdown
from toolview.render.terminal import render_thread as render_terminal
from toolview.render.text import render_thread as render_text

from .claude_cli import ClaudeRun
from .conftest import MAIN_SESSION, TASKS_SESSION
from .real_session import AWS_KEY, AWS_SECRET, CALLS, GITHUB_TOKEN, SUB_CALLS
from .tasks_session import TASK_CALLS

SECRETS = (AWS_KEY, AWS_SECRET, GITHUB_TOKEN)
# A drawn call's header line starts with its status icon (✓ ✗ ◌ …), on text,
# terminal and Markdown (after "### ") alike; a sub-agent's are indented
# (text, terminal: "│ ") or quoted (Markdown: "> ") under its Agent call.
HEADER = re.compile(r"^[ \t│>]*(?:#+ )?[✓✗◌?∅⊘⏱■•] ", re.MULTILINE)
SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": render_text,
    "terminal": lambda thread: render_terminal(thread, width=120),
    "markdown": render_markdown,
}


@dataclass(frozen=True)
class Case:
    """A real session and the calls it must hold (the sub-agent's after the main ones)."""

    path: Path
    calls: tuple[tuple[str, str], ...]
    failed: frozenset[str]


@pytest.fixture(params=["main-fixture", "main-fresh", "tasks-fixture", "tasks-fresh"])
def case(request: pytest.FixtureRequest) -> Case:
    """Each committed session, and the same script run by the pinned CLI now."""
    which, when = str(request.param).split("-")
    path = {"main": MAIN_SESSION, "tasks": TASKS_SESSION}[which]
    if when == "fresh":
        run: ClaudeRun = request.getfixturevalue("real_run" if which == "main" else "tasks_run")
        path = run.session_file()
    if which == "main":
        return Case(path, CALLS + SUB_CALLS, frozenset({"toolu_03fail"}))
    return Case(path, TASK_CALLS, frozenset({"toolu_t5missing", "toolu_t5edit"}))


@pytest.fixture(params=["fixture", "fresh"])
def session(request: pytest.FixtureRequest, fixture_session: Path) -> Path:
    """The committed main session, and one the pinned CLI writes now."""
    if request.param == "fixture":
        return fixture_session
    run: ClaudeRun = request.getfixturevalue("real_run")
    return run.session_file()


def observations(session: Path) -> list[Observation]:
    items = list(load_observations(session))
    notes = [item.text for item in items if isinstance(item, SessionNote)]
    assert notes == []
    return [item for item in items if not isinstance(item, SessionNote)]


def test_every_call_is_loaded_once_in_order_with_a_final_result(case: Case) -> None:
    loaded = observations(case.path)
    calls = [o for o in loaded if isinstance(o, ToolCall)]
    own = [(c.tool_call_id, c.tool_name) for c in calls if not isinstance(c.parent_call_id, str)]
    marked = [(c.tool_call_id, c.tool_name) for c in calls if isinstance(c.parent_call_id, str)]
    assert own + marked == list(case.calls)
    assert all(
        c.parent_call_id == "toolu_12agent"
        for c in calls
        if (c.tool_call_id, c.tool_name) in marked
    )
    finals = {o.tool_call_id: o for o in loaded if isinstance(o, ToolResult) and o.complete}
    assert set(finals) == {call_id for call_id, _ in case.calls}
    assert {call_id for call_id, result in finals.items() if result.is_error} == case.failed


def test_the_persisted_output_is_read_whole_from_tool_results(session: Path) -> None:
    finals = {
        o.tool_call_id: o for o in observations(session) if isinstance(o, ToolResult) and o.complete
    }
    assert "105000" in finals["toolu_11big"].text  # past the 30,000-character cut


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_draws_every_call_and_no_secret(case: Case, surface: str) -> None:
    out = SURFACES[surface](Thread.from_observations(observations(case.path)))
    assert len(HEADER.findall(out)) == len(case.calls), out
    assert "no renderer for kind" not in out  # each drawn by its kind, none as bare text
    assert [secret for secret in SECRETS if secret in out] == []


def test_html_draws_every_call_and_no_secret(case: Case) -> None:
    loaded = observations(case.path)
    html = render_thread_html(Thread.from_observations(loaded))
    nested = {o.tool_call_id for o in loaded if isinstance(o, ToolCall) and o.parent_call_id}
    for call_id, _ in case.calls:
        own = call_element_id(call_id)  # a sub-agent's call: tv-subcall-…, in its <details>
        element = SUBCALL_PREFIX + own[len(ID_PREFIX) :] if call_id in nested else own
        assert html.count(f'id="{element}"') == 1, call_id
    assert "no renderer for kind" not in html
    assert [secret for secret in SECRETS if secret in html] == []


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_the_planted_secrets_are_redacted_where_they_were(session: Path, surface: str) -> None:
    out = SURFACES[surface](Thread.from_observations(observations(session)))
    # app.py's token, secrets.env's two lines, and both again at the stored output's end
    assert out.count("[redacted: github-token]") == 1
    assert out.count("[redacted: aws-access-key-id]") == 2


def test_the_observations_pass_the_contract_check(case: Case) -> None:
    lines = [encode_observation(observation) for observation in observations(case.path)]
    assert [str(violation) for violation in check_lines(lines, strict=True)] == []
    assert [decode_observation(line) for line in lines] == observations(case.path)


def toolview(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The ``toolview`` command itself, in a subprocess, as a user runs it."""
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, check=False)


def test_show_json_then_check_strict_passes_with_every_call_and_no_secret(case: Case) -> None:
    shown = toolview("show", "--json", str(case.path))
    assert shown.returncode == 0, shown.stderr
    checked = toolview("check", "--strict", "-", stdin=shown.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = [decode_observation(line) for line in shown.stdout.splitlines()]
    ids = [o.tool_call_id for o in lines if isinstance(o, ToolCall)]
    assert sorted(ids) == sorted(call_id for call_id, _ in case.calls)
    assert [secret for secret in SECRETS if secret.encode() in shown.stdout] == []


def test_show_on_the_project_folder_draws_both_sessions_newest_first(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(MAIN_SESSION.parent, project)
    # a checkout's mtimes are arbitrary: give each session the time it was written at
    os.utime(project / MAIN_SESSION.name, (1_800_000_000, 1_800_000_000))
    os.utime(project / TASKS_SESSION.name, (1_800_000_100, 1_800_000_100))
    shown = toolview("show", "--surface", "text", str(project))
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout.decode()
    assert out.index(TASKS_SESSION.stem) < out.index(MAIN_SESSION.stem)
    assert len(HEADER.findall(out)) == len(CALLS + SUB_CALLS + TASK_CALLS)
    assert [secret for secret in SECRETS if secret in out] == []
