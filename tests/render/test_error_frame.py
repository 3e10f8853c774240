"""An error result: the status wins the frame, the body stays informative, on every surface.

A failed command is exactly when people read a tool-call view, so an error
whose descriptor validates is drawn by its kind's renderer inside the error
frame (``$ command``, stdout, stderr apart and labelled, the exit code, the
duration, the truncation notice); an error without one is its text, and its
truncation is said too, so cut error output never looks complete.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from render_samples import CASES

from toolview import Descriptor, DiffProps, ShellProps, ToolCall, ToolResult, Truncation
from toolview.contract.thread import Thread
from toolview.render import KindBody, notebook
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface

Render = Callable[[Thread, Any], str]

SURFACES: dict[str, tuple[Any, Render]] = {
    "text": (text_surface, lambda t, r: text_surface.render_thread(t, registry=r)),
    "terminal": (
        terminal_surface,
        lambda t, r: terminal_surface.render_thread(t, width=100, registry=r),
    ),
    "markdown": (markdown_surface, lambda t, r: markdown_surface.render_thread(t, registry=r)),
    "html": (html_surface, lambda t, r: html_surface.render_thread_html(t, registry=r)),
    "html-page": (html_surface, lambda t, r: html_surface.render_page(t, registry=r)),
}
ERROR_WORDS = {"text": "Error", "terminal": "Error", "markdown": "Error"} | {
    "html": "Tool call failed",
    "html-page": "Tool call failed",
}


def shown(surface: str, thread: Thread, registry: Any = None) -> str:
    return SURFACES[surface][1](thread, registry)


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_failed_command_keeps_everything_inside_the_error_frame(surface: str) -> None:
    out = shown(surface, CASES["error_failed_command"]())
    assert ERROR_WORDS[surface] in out and "✗" in out and "Success" not in out
    for piece in ("$ pytest -q", "1 failed, 12 passed", "stderr", "error: 1 test failed"):
        assert piece in out, piece
    assert "exit code 1" in out and "3.4 s" in out
    assert "4,000 more lines" in out  # the tool's own cut, said
    said = _said(surface, out)
    assert said.count("pytest -q") == 1  # not on an args line as well
    assert said.count("shell") == 1  # the tool name, not "shell · shell"


def _said(surface: str, out: str) -> str:
    """What a surface says in its body: html's text, less its tags and the collapsed call's
    one-line gist (hidden while the call is open, ``render.html.structure``)."""
    if not surface.startswith("html"):
        return out
    body = re.sub(r'<span class="tv-gist">[^<]*</span>', "", out.split("<body>")[-1])
    return re.sub(r"<[^>]*>", "", body)


def test_stdout_is_not_painted_as_an_error_and_stderr_is_marked() -> None:
    thread = CASES["error_failed_command"]()
    ansi = terminal_surface.render_thread(thread, width=100, color=True)
    red = "\x1b[31m"
    stdout_line = next(line for line in ansi.splitlines() if "1 failed, 12 passed" in line)
    assert red not in stdout_line and "\x1b[1;31m" not in stdout_line
    stderr_line = next(line for line in ansi.splitlines() if "error: 1 test failed" in line)
    assert red in stderr_line
    html = html_surface.render_thread_html(thread)
    assert re.search(r'<pre class="tv-pre">tests/test_1\.py', html)  # stdout: plain
    assert '<div class="tv-label">stderr</div>' in html
    assert '<pre class="tv-pre tv-stderr">warning: slow test' in html


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_kind_without_a_renderer_shows_the_error_text_and_its_cut(surface: str) -> None:
    out = shown(surface, CASES["error_text_cut"]())  # kind "pi.tool.bash"
    assert "ValueError: bad" in out and "x.py" not in out  # stack trace cut
    assert "4,000 more lines" in out
    assert "no renderer" not in out  # an error reads as an error, as before


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_renderer_that_raises_in_the_error_frame_shows_the_text_with_a_note(
    surface: str,
) -> None:
    def broken(body: KindBody) -> Any:
        raise RuntimeError("boom")

    registry = SURFACES[surface][0].REGISTRY.copy()
    registry.register("shell", broken)
    out = shown(surface, CASES["error_failed_command"](), registry)
    assert "the renderer for kind 'shell' failed" in out.replace("&#x27;", "'")
    assert "error: 1 test failed" in out and "4,000 more lines" in out


def test_the_readme_example_says_its_output_was_cut() -> None:
    """README's first example: 200 of 4,200 lines of a failed pytest, not just "1 failed"."""
    props = ShellProps(command="pytest", exit_code=1, stdout="1 failed", stderr="")
    descriptor = Descriptor("shell", props, Truncation(shown=200, total=4_200, unit="lines"))
    result = ToolResult(
        "call-7", "bash", "1 failed", complete=True, is_error=True, descriptor=descriptor
    )
    thread = Thread.from_observations([ToolCall("call-7", "bash", {"command": "pytest"}), result])
    for surface in SURFACES:
        out = shown(surface, thread)
        assert "4,000 more lines" in out and "exit code 1" in out and "$ pytest" in out


def test_a_notebook_shows_the_failed_command_in_every_mime_type() -> None:
    thread = CASES["error_failed_command"]()
    bundles = [
        notebook.thread_mimebundle(thread),
        notebook.call_mimebundle(thread.calls()[0], thread),
    ]
    for bundle in bundles:
        for mime, out in bundle.items():
            assert "exit code 1" in out and "error: 1 test failed" in out, mime
            assert "4,000 more lines" in out and "3.4 s" in out, mime


FAILED_PATCH = "apply_patch verification failed: Failed to find expected lines in notes.txt:"
DIFF = "--- a/notes.txt\n+++ b/notes.txt\n@@\n alpha\n-delta\n+delta, patched\n gamma\n"


def _failed_patch() -> Thread:
    result = ToolResult(
        "p1",
        "apply_patch",
        f"{FAILED_PATCH}\nalpha\ndelta\ngamma",
        complete=True,
        is_error=True,
        descriptor=Descriptor("diff", DiffProps(diff=DIFF)),
    )
    return Thread.from_observations([ToolCall("p1", "apply_patch", {"input": "…"}), result])


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_failed_patch_says_why_first_and_keeps_its_diff(surface: str) -> None:
    drawn = shown(surface, _failed_patch())
    out = _said(surface, drawn)
    assert ERROR_WORDS[surface] in drawn and "Success" not in drawn
    assert FAILED_PATCH in out and "delta, patched" in out
    assert out.index(FAILED_PATCH) < out.index("delta, patched")  # why, then what it proposed
    assert out.count(FAILED_PATCH) == 1


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_failed_command_whose_output_is_its_text_says_it_once(surface: str) -> None:
    props = ShellProps(command="ls /nope", exit_code=2, stdout="", stderr="ls: /nope: missing\n")
    result = ToolResult(
        "c1", "bash", "ls: /nope: missing\n", complete=True, is_error=True,
        descriptor=Descriptor("shell", props),
    )  # fmt: skip
    thread = Thread.from_observations([ToolCall("c1", "bash", {"command": "ls /nope"}), result])
    out = _said(surface, shown(surface, thread))
    assert out.count("ls: /nope: missing") == 1 and "exit code 2" in out


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_cut_failed_patch_says_what_was_cut_once(surface: str) -> None:
    """The message leading the diff leaves the cut to the kind body, on every surface alike."""
    cut = Truncation(shown=7, total=4_007, unit="lines")
    result = ToolResult(
        "p1", "apply_patch", f"{FAILED_PATCH}\nalpha", complete=True, is_error=True,
        descriptor=Descriptor("diff", DiffProps(diff=DIFF), cut),
    )  # fmt: skip
    thread = Thread.from_observations([ToolCall("p1", "apply_patch", {"input": "…"}), result])
    out = _said(surface, shown(surface, thread))
    assert out.count(FAILED_PATCH) == 1 and out.count("4,000 more lines") == 1
