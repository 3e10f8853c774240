"""A second final result is kept as a note on its call, on every surface, never dropped."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from toolview.contract import (
    RunStarted,
    Thread,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
)
from toolview.render import CallView, Receipt, view_entry
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_call_html, render_thread_html
from toolview.render.notebook import NotebookCall, NotebookThread
from toolview.render.notes import NOTE_PREVIEW_CHARS

SECRET = "ghp_" + "a" * 36
SGR = re.compile(r"\x1b\[[0-9;]*m")
TAGS = re.compile(r"<style>.*?</style>|<[^>]+>", re.DOTALL)

SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=300),
    "terminal-color": lambda t: SGR.sub(
        "", terminal_surface.render_thread(t, width=300, color=True)
    ),
    "markdown": lambda t: markdown_surface.render_thread(t).replace("\\", ""),
    "html": lambda t: TAGS.sub("", render_thread_html(t)),
    "notebook-plain": lambda t: NotebookThread(t)._repr_mimebundle_()["text/plain"],
    "notebook-html": lambda t: TAGS.sub("", NotebookThread(t)._repr_mimebundle_()["text/html"]),
    "notebook-markdown": lambda t: NotebookThread(t)._repr_mimebundle_()["text/markdown"],
}


def twice(*results: ToolResult | ToolRefused) -> Thread:
    return Thread.from_observations([RunStarted("r"), ToolCall("c1", "bash", {}), *results])


OK = ToolResult("c1", "bash", "hello", complete=True, is_error=False)
BOOM = ToolResult("c1", "bash", f"boom\x1b[31m {SECRET}\nsecond line", complete=True, is_error=True)


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_final_error_after_a_success_is_a_note_and_the_success_stands(surface: str) -> None:
    out = SURFACES[surface](twice(OK, BOOM))
    assert "hello" in out and "Success" in out and "Error" not in out
    assert "a second error result came after this call was final; ignored, the first stands" in out
    assert "boom" in out and "second line" in out  # the preview is on one line
    assert SECRET not in out and "\x1b" not in out


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_success_after_an_error_is_a_note_and_the_error_stands(surface: str) -> None:
    out = SURFACES[surface](twice(BOOM, OK))
    assert "Error" in out and "Success" not in out
    assert "a second result came after this call was final; ignored, the first stands: hello" in out


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_refused_call_shows_what_it_ignored_under_its_receipt(surface: str) -> None:
    out = SURFACES[surface](twice(ToolRefused("c1", "bash", "no", "rules"), OK))
    assert "bash refused by rules: no" in out
    assert "ignored, the first stands: hello" in out


def test_a_flood_is_three_notes_and_a_count() -> None:
    thread = twice(OK, *(BOOM for _ in range(50)))
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView) and len(view.notes) == 4
    assert view.notes[-1] == "47 more final results ignored the same way"


def test_the_preview_is_bounded() -> None:
    thread = twice(OK, ToolResult("c1", "bash", "x" * 10_000, True, False))
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView)
    (note,) = view.notes
    assert "x" * NOTE_PREVIEW_CHARS + " … 9,880 more characters" in note


def test_a_single_call_render_carries_its_notes_inside_its_element() -> None:
    """The live page replaces a call's element: the note must be inside it."""
    thread = twice(OK, BOOM)
    entry = thread.calls()[0]
    html = render_call_html(entry, thread)
    assert html.startswith('<article class="tv-call"') and html.endswith("</article>")
    assert html.count('<p class="tv-note" role="note">note: a second error result') == 1
    refused = twice(ToolRefused("c1", "bash", "no"), OK)
    receipt_html = render_call_html(refused.calls()[0], refused)
    assert receipt_html.endswith("ignored, the first stands: hello</p></article>")
    for mime, shown in NotebookCall(entry, thread)._repr_mimebundle_().items():
        assert "ignored, the first stands" in shown, mime


def test_without_a_second_final_there_is_no_note() -> None:
    thread = twice(OK, ToolResult("c1", "bash", "late partial", complete=False, is_error=False))
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView) and view.notes == ()
    refused = twice(ToolRefused("c1", "bash", "no"))
    receipt = view_entry(refused.calls()[0], refused)
    assert isinstance(receipt, Receipt) and receipt.notes == ()
    assert "note" not in text_surface.render_thread(thread)


ASKED = ToolWaiting(
    tool_call_id="c1",
    tool_name="bash",
    args={"command": "deploy"},
    question=f"Deploy with \x1b[31m{SECRET}?",
    schema={"type": "object", "properties": {"reason": {"type": "string"}}},
)
DECIDED = ToolDecision(
    tool_call_id="c1",
    decision="deny",
    by="laptop",
    via="127.0.0.1",
    message="not on a Friday",
    at="2026-12-07T23:00:00Z",
)


def asked(*more: ToolDecision) -> Thread:
    return Thread.from_observations([RunStarted("r"), ToolCall("c1", "bash", {}), ASKED, *more])


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_waiting_call_shows_needs_input_and_what_it_asks(surface: str) -> None:
    out = SURFACES[surface](asked())
    assert "Needs input" in out  # the display table's label: no surface words it itself
    assert "asked a person: Deploy with" in out
    assert "(an answer with: reason)" in out
    assert SECRET not in out and "\x1b" not in out


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_decided_call_shows_its_receipt(surface: str) -> None:
    out = SURFACES[surface](asked(DECIDED))
    assert "Needs input" not in out and "Running" in out
    receipt = "Denied by laptop at 2026-12-07T23:00:00Z from 127.0.0.1: not on a Friday"
    assert receipt in out
