"""The thread summary: exact counts by display status, refusals apart, on every surface."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import get_args

import pytest
from render_samples import summary_thread

from toolview.contract import (
    STATUS_DISPLAY,
    DisplayStatus,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_thread_html
from toolview.render.notebook import NotebookThread
from toolview.render.summary import SUMMARY_ORDER, summarize, thread_summary
from toolview.render.words import summary_text

EXPECTED = "7 calls: 2 succeeded, 1 failed, 1 cancelled, 1 found nothing, 1 refused, 1 running"
TAGS = re.compile(r"<[^>]+>")
SGR = re.compile(r"\x1b\[[0-9;]*m")

SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=200),
    "terminal-color": lambda t: SGR.sub(
        "", terminal_surface.render_thread(t, width=200, color=True)
    ),
    "markdown": lambda t: markdown_surface.render_thread(t).replace("**", ""),
    "html": lambda t: TAGS.sub("", render_thread_html(t)),
}


def test_counts_are_exact_and_in_a_fixed_order() -> None:
    summary = thread_summary(summary_thread())
    assert summary is not None
    assert summary.total == 7 == sum(part.count for part in summary.parts)
    assert summary_text(summary) == EXPECTED
    keys = [part.key for part in summary.parts]
    assert keys == [key for key in SUMMARY_ORDER if key in keys]


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_ends_with_the_summary(surface: str) -> None:
    out = SURFACES[surface](summary_thread()).rstrip()
    assert out.splitlines()[-1].endswith(EXPECTED.split(": ", 1)[1]), out[-300:]
    assert EXPECTED in out


def test_the_notebook_bundle_carries_the_summary() -> None:
    bundle = NotebookThread(summary_thread())._repr_mimebundle_()
    assert EXPECTED in bundle["text/plain"]
    assert EXPECTED in TAGS.sub("", bundle["text/html"])
    assert EXPECTED in bundle["text/markdown"].replace("**", "")


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_one_call_has_no_summary(surface: str) -> None:
    thread = Thread.from_observations(
        [ToolCall("c", "ls", {}), ToolResult("c", "ls", "a", True, False)]
    )
    assert "1 call" not in SURFACES[surface](thread)
    assert thread_summary(thread) is None


def test_a_denied_envelope_is_not_counted_as_a_refusal() -> None:
    """A tool that ran and answered "denied" is not a call a guard stopped."""
    envelope = '{"schemaVersion": "1.0", "tool": "t", "status": "denied"}'
    thread = Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("a", "t", {}),
            ToolResult("a", "t", envelope, True, False),
            ToolCall("b", "t", {}),
            ToolRefused("b", "t", "no", "g"),
        ]
    )
    summary = thread_summary(thread)
    assert summary is not None and summary_text(summary) == "2 calls: 1 denied, 1 refused"
    assert {part.status for part in summary.parts} == {"denied"}


def test_the_words_colours_and_icons_come_from_the_status_table() -> None:
    for status in get_args(DisplayStatus):
        display = STATUS_DISPLAY[status]
        summary = summarize([_view_with(status), _view_with(status)])
        assert summary is not None
        (part,) = summary.parts
        assert part.display == display
        assert display.aria.lower().endswith(part.words)


def test_the_html_footer_stays_last_when_a_live_page_appends_calls() -> None:
    from toolview.render.html import FRAGMENT_CSS

    html = render_thread_html(summary_thread())
    assert html.endswith("</footer></div>")
    assert re.search(r"\.tv-summary \{[^}]*order: 1", FRAGMENT_CSS)


def _view_with(status: DisplayStatus):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from toolview.render import CallView, view_entry

    thread = Thread.from_observations(
        [ToolCall("c", "t", {}), ToolResult("c", "t", "x", True, False)]
    )
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView)
    header = replace(view.header, status=status, display=STATUS_DISPLAY[status])
    return replace(view, header=header)
