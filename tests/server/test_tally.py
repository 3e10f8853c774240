"""The tally: the summary and pending set kept per observation equal what a walk says.

Every prefix of a random thread is checked against ``render.summary.thread_summary``
(which decides the view of every call) and the summary's markup against
``summary_html`` of it; a call's version must move whenever its markup does,
since the page's cache trusts it.
"""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.render.html import render_call_html
from toolview.render.html.receipt import summary_html
from toolview.render.summary import thread_summary
from toolview.server.pages import pending_calls
from toolview.server.tally import Tally

CALLS = ["a", "b", "c", "d"]
STATUSES = ["ok", "failed", "denied", "timed_out", "canceled", "pending", "weird", "needs_input"]


def envelope(status: str) -> dict[str, object]:
    return {"schemaVersion": "1.0", "tool": "t", "status": status, "summary": "said"}


@st.composite
def results(draw: st.DrawFn, call: str) -> Observation:
    """A final result of any shape the status decision looks at."""
    shape = draw(st.integers(0, 5))
    is_error = draw(st.booleans())
    status = draw(st.sampled_from(STATUSES))
    text, descriptor = draw(st.text(max_size=12)), None
    if shape == 1:  # an envelope in the text, no descriptor
        text = msgspec.json.encode(envelope(status)).decode()
    elif shape == 2:  # a descriptor of kind envelope, valid
        descriptor = Descriptor("envelope", envelope(status))
    elif shape == 3:  # a descriptor of kind envelope whose props do not validate
        descriptor = Descriptor("envelope", {"status": status})
    elif shape == 4:  # a shell descriptor, valid or not
        props = {"command": "ls", "exitCode": 1, "stdout": text, "stderr": ""}
        descriptor = Descriptor("shell", props if draw(st.booleans()) else {"command": 3})
    if descriptor is None:
        return ToolResult(call, "tool", text, complete=True, is_error=is_error)
    return ToolResult(call, "tool", text, True, is_error, descriptor)


@st.composite
def threads(draw: st.DrawFn) -> list[Observation]:
    out: list[Observation] = []
    for _ in range(draw(st.integers(1, 30))):
        call = draw(st.sampled_from(CALLS))
        step = draw(st.integers(0, 7))
        if step <= 1:
            out.append(ToolCall(call, "shell", {"n": step}))
        elif step == 2:
            text = draw(st.text(max_size=8))
            out.append(ToolResult(call, "shell", text, complete=False, is_error=False))
        elif step == 3:
            out.append(draw(results(call)))
        elif step == 4:
            out.append(ToolRefused(call, "shell", draw(st.text(max_size=8))))
        elif step == 5:
            run = draw(st.sampled_from(["r1", "r2"]))
            outcome = draw(st.sampled_from(["completed", "aborted", "error"]))
            reason = draw(st.sampled_from(["", "interrupted by SIGINT", "gone"]))
            out.append(RunStarted(run) if draw(st.booleans()) else RunEnded(run, outcome, reason))
        else:
            out.append(Message("user", draw(st.text(max_size=8))))
    return out


@settings(max_examples=300, deadline=None)
@given(threads())
def test_the_tally_says_what_a_walk_over_the_thread_says(observations: list[Observation]) -> None:
    thread, tally = Thread(), Tally()
    drawn: dict[str, tuple[int, str]] = {}
    for observation in observations:
        before = len(thread.entries)
        thread.add(observation)
        tally.observe(thread, observation, before)
        walked = thread_summary(thread)
        assert tally.summary() == walked
        kept = tally.summary()
        assert (kept and summary_html(kept)) == (walked and summary_html(walked))
        assert tally.pending() == [e.tool_call_id for e in pending_calls(thread)]
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
    assert tally.pending() == []
