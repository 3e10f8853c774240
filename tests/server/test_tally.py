"""The tally: the summary kept per observation equals what a walk says.

Every prefix of a random thread is checked against ``render.summary.thread_summary``
(which decides the view of every call) and the summary's markup against
``summary_html`` of it; a call's version must move whenever its markup does,
since the page's cache trusts it. The calls running now are not the tally's:
the page reads the ledger's (``Thread.pending``), held here to a walk too.
"""

from __future__ import annotations

from hypothesis import given, settings
from thread_strategies import threads

from toolview.contract import (
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
)
from toolview.render.html import render_call_html
from toolview.render.html.receipt import summary_html
from toolview.render.summary import thread_summary
from toolview.server.page.tally import Tally


@settings(max_examples=300, deadline=None)
@given(threads(asks=True))
def test_the_tally_says_what_a_walk_over_the_thread_says(observations: list[Observation]) -> None:
    thread, tally = Thread(), Tally()
    drawn: dict[str, tuple[int, str]] = {}
    for observation in observations:
        before = len(thread.entries)
        thread.add(observation)
        tally.observe(thread, observation, before)
        walked = thread_summary(thread)
        kept = tally.summary(thread.counts())
        assert kept == walked
        assert (kept and summary_html(kept)) == (walked and summary_html(walked))
        assert thread.pending() == [e for e in thread.calls() if thread.state(e) == "pending"]
        assert tally.calls == len(thread.calls())
        for entry in thread.calls():
            html, version = render_call_html(entry, thread), tally.versions[entry.tool_call_id]
            seen = drawn.get(entry.tool_call_id)
            if seen is not None and seen[1] != html:
                assert version > seen[0], "markup changed but the version did not"
            drawn[entry.tool_call_id] = (version, html)


def test_an_interrupted_run_counts_its_running_calls_as_cancelled() -> None:
    thread, tally = Thread(), Tally()
    for observation in [
        RunStarted("r"),
        ToolCall("a", "shell", {}),
        ToolCall("b", "shell", {}),
        ToolResult("a", "shell", "done", complete=True, is_error=False),
        RunEnded("r", "aborted", "interrupted by SIGINT"),
    ]:
        before = len(thread.entries)
        thread.add(observation)
        tally.observe(thread, observation, before)
    assert dict(tally.counts) == {"success": 1, "cancelled": 1}
    assert thread.pending() == []
