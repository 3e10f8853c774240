"""A failed Claude Code ``Bash`` call is drawn as what it is: a command that exited non-zero.

From the committed real session (real/, Claude Code 2.1.197): ``ls`` of a
missing folder, whose ``tool_result`` is flagged ``is_error`` and says ``Exit
code 2`` on its first line. Each surface draws it in the error frame with its
shell body (the command, its output, the exit code), its output once.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest

from toolview.contract import Observation, Thread, ToolCall, ToolResult
from toolview.hosts.claude_code import load_observations
from toolview.render.html import render_thread_html
from toolview.render.terminal import render_thread as render_terminal
from toolview.render.text import render_thread as render_text

from .conftest import MAIN_SESSION

FAILED = "toolu_03fail"
OUTPUT = "ls: cannot access '/no/such/dir': No such file or directory"
SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": render_text,
    "terminal": lambda thread: render_terminal(thread, width=200),
    "html": lambda thread: html.unescape(render_thread_html(thread)),
}


def _the_failed_call() -> list[Observation]:
    return [
        o
        for o in load_observations(MAIN_SESSION)
        if isinstance(o, ToolCall | ToolResult) and o.tool_call_id == FAILED
    ]


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_failed_command_is_drawn_as_a_shell_result_in_the_error_frame(surface: str) -> None:
    thread = Thread.from_observations(_the_failed_call())
    assert [thread.state(e) for e in thread.calls()] == ["error"]
    drawn = SURFACES[surface](thread)
    assert "$ ls /no/such/dir" in drawn  # the shell body's command line
    assert "exit code 2" in drawn  # ... and its exit code
    assert drawn.count(OUTPUT) == 1  # the output, said once
    assert "Exit code 2" not in drawn  # Claude Code's line is the exit code now, not output


def test_the_html_frame_says_error_and_shell() -> None:
    drawn = render_thread_html(Thread.from_observations(_the_failed_call()))
    assert 'data-state="error"' in drawn and 'data-kind="shell"' in drawn
