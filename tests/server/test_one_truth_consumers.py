"""Every consumer of a thread says what its call ledger says, on random observations.

Issue 22: one ledger, no second opinion. ``test_one_truth`` holds the Thread,
the page tally and the index card equal; this holds the rest to the same
truth, prefix by prefix, on random sequences (runs nested and interleaved,
late and duplicate results, aborts and restarts, sub-agents): the generic
view (``render.view``), ``show``'s summary (``render.summary``), the
recorder's report (``recording.reports``), what the live page is sent
(``server.page.running``) and the AG-UI events (``wire.agui``).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from test_one_truth import Views, _flat
from thread_strategies import threads

from toolview import contract
from toolview.contract.call_state import CallState
from toolview.contract.status import call_status
from toolview.contract.thread import Thread
from toolview.recording.reports import render_report
from toolview.render import CallView, view_entry
from toolview.render.html import call_element_id
from toolview.render.summary import thread_summary
from toolview.safety import redact, redact_json
from toolview.server.page.running import running_now, status_words
from toolview.wire.agui import ABORTED_KEY, REFUSED_KEY, AguiTranslator
from toolview.wire.follow import Redactor

_ARTICLE = re.compile(
    r'<article class="tv-call[^"]*" id="([^"]+)" data-state="(\w+)" '
    r'data-status="(\w+)"'
)


def _report_states(thread: Thread) -> dict[str, tuple[str, str]]:
    """Each call's state and status as the recorder's HTML report draws it (ids once only)."""
    found = _ARTICLE.findall(render_report(thread, Path("run.html"), None))
    seen = Counter(element for element, _, _ in found)
    return {e: (state, status) for e, state, status in found if seen[e] == 1}


def _hold_equal(views: Views) -> None:
    thread, tally = views.thread, views.tally
    calls = thread.calls()
    states = {e.tool_call_id: thread.state(e) for e in calls}
    keys = Counter(call_status(e, states[e.tool_call_id]) for e in calls)
    # the generic view every surface draws: its state and status are the ledger's
    for entry in calls:
        view = view_entry(entry, thread)
        assert view.state == states[entry.tool_call_id]
        if isinstance(view, CallView):
            assert view.header.status == call_status(entry, view.state)
    # show's summary: the counts the page's footer (the tally) says, by call_status
    summary = thread_summary(thread)
    assert summary == tally.summary(thread.counts())
    if summary is not None:
        assert {part.key: part.count for part in summary.parts} == +keys
    # the recorder's report
    report = _report_states(thread)
    for entry in calls:
        drawn = report.get(call_element_id(entry.tool_call_id))
        if drawn is not None:
            status = "denied" if states[entry.tool_call_id] == "refused" else None
            want = status or call_status(entry, states[entry.tool_call_id])
            assert drawn == (states[entry.tool_call_id], want)
    # what the live page is sent: the running calls and the line a reload renders
    sent = running_now(thread, tally.calls, 0)
    running = [e for e in calls if states[e.tool_call_id] == "pending"]
    assert sent.running == {call_element_id(e.tool_call_id): e.tool_call_id for e in running}
    assert sent.line == status_words(running, len(calls))


def _event_states(events: list[object]) -> dict[str, str]:
    """Each call as the AG-UI events say it: its first answer that is no abort, else aborted,
    else running (announced, no result yet)."""
    said: dict[str, str] = {}
    for event in events:
        kind = type(event).__name__
        call_id = getattr(event, "tool_call_id", None)
        if kind == "ToolCallStartEvent" and isinstance(call_id, str):
            said.setdefault(call_id, "running")
        if kind != "ToolCallResultEvent" or not isinstance(call_id, str):
            continue
        metadata = getattr(event, "metadata", None) or {}
        if ABORTED_KEY in metadata:
            if said.get(call_id) == "running":
                said[call_id] = "aborted"
            continue
        if said.get(call_id) in ("running", "aborted"):
            refused, failed = REFUSED_KEY in metadata, metadata.get("toolview:isError")
            said[call_id] = "refused" if refused else "error" if failed else "done"
    return said


_AGREES: dict[CallState, tuple[str, ...]] = {
    "pending": ("running", "aborted"),  # a run started again: an AG-UI answer is not taken back
    "aborted": ("aborted",),
    "done": ("done",),
    "error": ("error",),
    "refused": ("refused",),
}


def _hold_agui_equal(observations: list[contract.Observation]) -> None:
    """The AG-UI events of ``observations`` (no sub-agents: its calls are flat) say each call
    as the thread does, prefix by prefix."""
    thread = Thread()
    agui = AguiTranslator("t", Redactor(text=redact, json=redact_json))
    events: list[object] = []
    for seq, observation in enumerate(observations, 1):
        thread.add(observation)
        events += agui.push(seq, observation)
        said = _event_states(events)
        for entry in thread.calls():
            state = thread.state(entry)
            assert said[entry.tool_call_id] in _AGREES[state], (entry.tool_call_id, state)


@settings(max_examples=300, deadline=None)
@given(threads())
def test_every_consumer_says_what_the_ledger_says(
    observations: list[contract.Observation],
) -> None:
    views = Views()
    for seq, observation in enumerate(observations, 1):
        views.add(seq, observation)
        _hold_equal(views)
    _hold_agui_equal(_flat(observations))
