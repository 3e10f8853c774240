"""Time and tokens: a call's duration from its at's, the summary's span and per-model tokens."""

from __future__ import annotations

import pytest
from render_samples import TIMED_OBSERVATIONS, conversation, summary_thread, timed_thread

from toolview.contract import Message, ToolCall, ToolResult, Usage
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.bodies import CallView
from toolview.render.html import render_thread_html
from toolview.render.notebook import NotebookThread
from toolview.render.summary import ModelTokens, thread_summary
from toolview.render.summary_words import span_text
from toolview.render.view import view_entry

AT = "2026-12-01T23:44:20Z"


def _duration(*observations: ToolCall | ToolResult) -> int | None:
    thread = Thread.from_observations(observations)
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView)
    return view.header.duration_ms


def test_a_call_s_duration_is_its_call_at_to_its_final_result_at() -> None:
    call = ToolCall("c1", "read", {}, at=AT)
    done = ToolResult("c1", "read", "x", complete=True, is_error=False, at="2026-12-01T23:44:22.5Z")
    assert _duration(call, done) == 2500


@pytest.mark.parametrize(
    ("call_at", "result_at", "complete"),
    [
        (AT, "2026-12-01T23:44:22Z", False),  # still running: no duration yet
        (AT, "2026-12-01T23:44:19Z", True),  # the result before its call: no duration, no guess
        (AT, None, True),
        (None, AT, True),
        ("2026-02-31T00:00:00Z", AT, True),  # no such day: read as no time
    ],
)
def test_no_duration_without_two_readable_times_in_order(
    call_at: str | None, result_at: str | None, complete: bool
) -> None:
    call = ToolCall("c1", "read", {}, **({"at": call_at} if call_at else {}))
    result = ToolResult(
        "c1",
        "read",
        "x",
        complete=complete,
        is_error=False,
        **({"at": result_at} if result_at else {}),
    )
    assert _duration(call, result) is None


def test_the_span_is_the_earliest_to_the_latest_time_in_any_order() -> None:
    thread = Thread.from_observations(
        [
            Message("user", "b", at="2026-12-01T23:50:00Z"),
            Message("user", "a", at="2026-12-01T23:44:20.5Z"),  # earlier, and "20.5Z" < "20Z"
            Message("user", "c", at="2026-12-01T23:44:20Z"),
            Message("user", "d", at="2026-12-01T23:56:23Z"),
            Usage(model="m", input_tokens=1, output_tokens=2),
        ]
    )
    summary = thread_summary(thread)
    assert summary is not None and summary.span_ms == 723_000 and summary.total == 0
    assert text_surface.render_thread(thread).endswith(
        "── 0 calls\n   time 12 min 3 s\n   tokens m: 1 input, 2 output\n   cost no price\n"
    )


def test_one_call_s_time_alone_makes_no_summary() -> None:
    """Its span would only repeat the call's duration, as its counts its header."""
    call = ToolCall("c1", "read", {}, at=AT)
    done = ToolResult("c1", "read", "x", complete=True, is_error=False, at="2026-12-01T23:50:00Z")
    assert thread_summary(Thread.from_observations([call, done])) is None


def test_tokens_are_summed_per_model_in_order_of_first_use() -> None:
    summary = thread_summary(timed_thread())
    assert summary is not None and summary.tokens == (
        ModelTokens("claude-sonnet", 1500, 100, 900, 64),
        ModelTokens("claude-haiku", 50, 5, None, None),
    )


def test_threads_without_times_or_usage_have_the_summary_they_had() -> None:
    assert thread_summary(conversation()) is None
    summary = thread_summary(summary_thread())
    assert summary is not None and summary.span_ms is None and summary.tokens == ()
    one_time = Thread.from_observations([Message("user", "x", at=AT)])
    assert thread_summary(one_time) is None  # a span of nothing says nothing


def test_a_model_name_is_cleaned_like_any_untrusted_text() -> None:
    hostile = "m\x1b]0;owned\x07\u202e" + "x" * 300
    thread = Thread.from_observations([Usage(model=hostile, input_tokens=1, output_tokens=2)])
    for rendered in (
        text_surface.render_thread(thread),
        terminal_surface.render_thread(thread, width=200, color=True),
        markdown_surface.render_thread(thread),
        render_thread_html(thread),
    ):
        assert "\x1b]" not in rendered and "\u202e" not in rendered and "x" * 101 not in rendered
        assert "1 input, 2 output" in rendered


def test_the_notebook_bundle_says_time_and_tokens_and_folds_thinking() -> None:
    bundle = NotebookThread(Thread.from_observations(TIMED_OBSERVATIONS))._repr_mimebundle_()
    html, plain, md = bundle["text/html"], bundle["text/plain"], bundle["text/markdown"]
    assert '<details class="tv-message tv-message-thinking"><summary class="tv-role">' in html
    for rendered in (html, plain, md):
        assert (
            "time 12 min 3 s" in rendered and "tokens claude-haiku: 50 input, 5 output" in rendered
        )
        assert "2.5 s" in rendered


def test_a_long_span_says_hours() -> None:
    assert span_text(723_000) == "12 min 3 s"
    assert span_text(3 * 3_600_000 + 5 * 60_000 + 3_000) == "3 h 5 min 3 s"
