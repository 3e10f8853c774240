"""Receipts: a refused call is ONE line on every surface, never the generic renderer's block."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from corpora import secrets
from toolview.contract import STATUS_DISPLAY, RunStarted, ToolCall, ToolRefused, ToolResult
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_call_html, render_thread_html, render_view_html
from toolview.render.notebook import NotebookThread
from toolview.render.receipt import RECEIPT_REASON_CHARS, Receipt
from toolview.render.view import CallView, view_entry
from toolview.render.words import receipt_text

SGR = re.compile(r"\x1b\[[0-9;]*m")
TAGS = re.compile(r"<[^>]+>")

SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=200),
    "terminal-color": lambda t: SGR.sub(
        "", terminal_surface.render_thread(t, width=200, color=True)
    ),
    "markdown": markdown_surface.render_thread,
    "html": render_thread_html,
}


def refused(reason: str = "destructive", guard: str | None = "rules.toml", **args: str) -> Thread:
    call = ToolCall("c1", "bash", dict(args) or {"command": "rm -rf build"})
    refusal = (
        ToolRefused("c1", "bash", reason, guard) if guard else ToolRefused("c1", "bash", reason)
    )
    return Thread.from_observations([RunStarted("r"), call, refusal])


def lines_of(surface: str, thread: Thread) -> list[str]:
    out = SURFACES[surface](thread)
    return [line for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_refusal_is_one_line_with_tool_guard_and_reason(surface: str) -> None:
    lines = lines_of(surface, refused())
    assert len(lines) == 1, lines
    line = TAGS.sub("", lines[0]).replace("\\", "")
    assert "⊘" in line and "bash refused by rules.toml: destructive" in line
    assert "rm -rf build" in line
    assert "Denied" not in line, "no generic header: the receipt says 'refused' itself"


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_without_a_guard_the_receipt_says_refused_and_why(surface: str) -> None:
    line = TAGS.sub("", lines_of(surface, refused(guard=None))[0]).replace("\\", "")
    assert "bash refused: destructive" in line and " by " not in line


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_multi_line_hostile_reason_stays_on_one_line(surface: str) -> None:
    reason = "line one\r\nline two\x1b[31m red\x1b]0;title\x07\u202e rtl [bold]x[/]"
    lines = lines_of(surface, refused(reason, guard="g\nuard"))
    assert len(lines) == 1, lines
    assert "\x1b" not in lines[0] and "\r" not in lines[0] and "\u202e" not in lines[0]
    assert "line one line two" in TAGS.sub("", lines[0])


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_secrets_in_reason_guard_and_args_are_redacted(surface: str) -> None:
    for label, (text, secret) in list(secrets.SECRETS.items())[:12]:
        out = SURFACES[surface](refused(f"saw {text}", guard=text, command=text))
        assert secret not in out, label
        assert "redacted" in out, label


def test_html_receipt_is_escaped_labelled_and_keeps_the_call_id() -> None:
    thread = refused('<img src=x onerror="alert(1)">', guard="<b>g</b>")
    html = render_thread_html(thread)
    assert "<img" not in html and "<b>" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert 'id="tv-call-c1"' in html and 'data-state="refused"' in html
    aria = STATUS_DISPLAY["denied"].aria
    assert re.search(
        rf'<h3 class="tv-receipt tv-call-title">.*<span class="tv-sr">{aria}:</span> ', html
    )
    assert 'role="status"' not in html  # the page's status line is its one live region
    assert html.count("<h3") == 1 and "<p" not in html  # one line, its heading


def test_a_long_reason_is_bounded_and_says_how_much_was_cut() -> None:
    thread = refused("x" * 5000)
    receipt = view_entry(thread.calls()[0], thread)
    assert isinstance(receipt, Receipt)
    assert receipt.reason == "x" * RECEIPT_REASON_CHARS + " … 4,800 more characters"


def test_view_entry_gives_a_receipt_only_for_a_refusal() -> None:
    thread = refused()
    assert isinstance(view_entry(thread.calls()[0], thread), Receipt)
    done = Thread.from_observations(
        [ToolCall("c2", "ls", {}), ToolResult("c2", "ls", "a", True, False)]
    )
    assert isinstance(view_entry(done.calls()[0], done), CallView)


def test_render_call_of_a_refusal_draws_the_receipt_on_every_surface() -> None:
    """``render_call(view)`` callers (pi's live view, notebooks) get the same one line."""
    thread = refused("no\nway")
    entry = thread.calls()[0]
    view = view_entry(entry, thread)
    assert isinstance(view, Receipt)
    one = receipt_text(view)
    assert text_surface.render_call(view) == one + "\n"
    assert terminal_surface.render_call(view, width=200) == one + "\n"
    assert markdown_surface.render_call(view).replace("`", "") == f"### {one}\n"
    assert render_view_html(view, "tv-call-x").startswith(
        '<article class="tv-call tv-call-receipt"'
    )
    assert render_call_html(entry, thread) == render_view_html(view, "tv-call-c1")


def test_the_terminal_keeps_a_receipt_on_one_line_where_it_fits() -> None:
    wide = terminal_surface.render_thread(refused(command="x" * 60), width=200)
    assert wide == '⊘ bash refused by rules.toml: destructive · { "command": "' + "x" * 60 + '" }\n'


@pytest.mark.parametrize("width", [80, 60, 30])
def test_the_terminal_wraps_what_was_refused_instead_of_dropping_it(width: int) -> None:
    """An 80-column terminal shows the arguments too: wrapped under the refusal, never cut."""
    command = "rm -rf /home/alice/projects/toolview/build && git push --force origin main"
    thread = refused(
        reason="destructive command: deletes files outside the workspace", command=command
    )
    for color in (False, True):
        out = SGR.sub("", terminal_surface.render_thread(thread, width=width, color=color))
        lines = out.splitlines()
        assert lines[0].startswith("⊘ bash refused by")
        assert all(len(line) <= width for line in lines), lines
        assert all(line.startswith("  ") for line in lines[1:]), "only the receipt at column 0"
        joined = "".join(line.strip() for line in lines).replace(" ", "")
        assert command.replace(" ", "") in joined, lines
        assert "deletesfilesoutsidetheworkspace" in joined


def test_the_notebook_bundle_has_the_receipt_on_every_mime_type() -> None:
    bundle = NotebookThread(refused())._repr_mimebundle_()
    for mime, shown in bundle.items():
        assert "refused by" in shown and "destructive" in shown, mime
