"""The REAL Claude Code CLI (2.1.197) failing: every failure it flags is an error, sub-agents too.

A scripted session (the model is the only fake): a command exiting 3 with
output on both streams, an Edit the CLI refuses (``<tool_use_error>``), and a
sub-agent whose own command fails. Claude Code flags each ``tool_result`` with
``is_error`` and starts a failed command's text with ``Exit code N``; toolview
draws each as an error, with its text, on every surface, and counts it.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from toolview.contract import Observation, Thread, ToolResult
from toolview.hosts.claude_code import load_observations
from toolview.hosts.sessions import SessionNote
from toolview.render.html import render_page
from toolview.render.markdown import render_thread as markdown
from toolview.render.terminal import render_thread as terminal
from toolview.render.text import render_thread as text

from .claude_cli import ClaudeRun, run_claude
from .scripted_anthropic import ToolUse, Turn

MAIN = "MAIN-FAILURES: fail in three ways."
SUB = "SUB-FAILURES: run a command that fails."
# each failing call and the text every surface must show for it
SHOWN = {
    "toolu_f1exit": "exit code 3",  # the shell body's, in the error frame
    "toolu_f2edit": "File has not been read yet",
    "toolu_s1fail": "ls: cannot access '/no/sub/dir'",
}
# each one's text: a failed command's is its output (its exit code is the shell props')
TOLD = SHOWN | {"toolu_f1exit": "out\nerr"}


def _bash(call_id: str, command: str) -> Turn:
    return Turn(calls=(ToolUse(call_id, "Bash", {"command": command, "description": "fail"}),))


def _lanes(workspace: Path) -> dict[str, list[Turn]]:
    edit = {"file_path": str(workspace / "util.py"), "old_string": "no", "new_string": "x"}
    agent = {"description": "Fail", "prompt": SUB, "subagent_type": "general-purpose"}
    main = [
        _bash("toolu_f1exit", "echo out; echo err >&2; exit 3"),
        Turn(calls=(ToolUse("toolu_f2edit", "Edit", edit),)),
        Turn(calls=(ToolUse("toolu_f3agent", "Agent", agent),)),
        Turn(text="Three things failed."),
    ]
    sub = [_bash("toolu_s1fail", "echo half; ls /no/sub/dir"), Turn(text="It failed.")]
    return {SUB: sub, MAIN: main}


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory) -> ClaudeRun:
    home = tmp_path_factory.mktemp("claude-failures")
    files = {"util.py": b"def helper():\n    return 42\n"}
    with run_claude(home, _lanes(home / "workspace"), MAIN, files=files) as run:
        return run


@pytest.fixture(scope="module")
def observations(failing_run: ClaudeRun) -> list[Observation]:
    stream = load_observations(failing_run.session_file())
    return [o for o in stream if not isinstance(o, SessionNote)]


def every_surface(observations: list[Observation]) -> dict[str, str]:
    """The session as each surface draws it (a fresh thread each)."""
    return {
        "text": text(Thread.from_observations(observations)),
        "terminal": terminal(Thread.from_observations(observations), width=120),
        "markdown": markdown(Thread.from_observations(observations)),
        "html": render_page(Thread.from_observations(observations)),
    }


def _tool_results(path: Path) -> dict[str, dict[str, Any]]:
    found = {}
    for line in path.read_text().splitlines():
        content = (json.loads(line).get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                found[block["tool_use_id"]] = block
    return found


def test_the_cli_flags_each_failure_sub_agents_too(failing_run: ClaudeRun) -> None:
    main = failing_run.session_file()
    (sub,) = sorted((main.with_suffix("") / "subagents").glob("agent-*.jsonl"))
    blocks = _tool_results(main) | _tool_results(sub)
    assert all(blocks[call_id].get("is_error") is True for call_id in SHOWN)
    assert blocks["toolu_f1exit"]["content"] == "Exit code 3\nout\nerr"


def test_each_failure_is_an_error_with_its_text(observations: list[Observation]) -> None:
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    for call_id, said in TOLD.items():
        assert results[call_id].is_error and said in results[call_id].text, call_id
    assert not results["toolu_f3agent"].is_error  # the sub-agent answered; its call failed
    assert results["toolu_s1fail"].parent_call_id == "toolu_f3agent"


def test_every_surface_shows_each_failure_and_counts_it(
    observations: list[Observation],
) -> None:
    for surface, shown in every_surface(observations).items():
        for call_id, said in SHOWN.items():
            said = said.replace("'", "&#x27;") if surface == "html" else said
            assert said in shown, (surface, call_id)
    thread = Thread.from_observations(observations)
    states = {e.tool_call_id: thread.state(e) for e in thread.calls()}
    assert states == {"toolu_f1exit": "error", "toolu_f2edit": "error", "toolu_f3agent": "done"}
    child = thread.child("toolu_f3agent")
    assert child is not None and [child.state(e) for e in child.calls()] == ["error"]


def test_a_failed_command_keeps_its_shell_body_on_every_surface(
    observations: list[Observation],
) -> None:
    """The command and its exit code, in the error frame (as Codex's)."""
    for surface, shown in every_surface(observations).items():
        shown = html.unescape(shown) if surface == "html" else shown
        assert "$ echo out; echo err >&2; exit 3" in shown, surface
        assert "Exit code 3" not in shown, surface  # Claude Code's line became the exit code
