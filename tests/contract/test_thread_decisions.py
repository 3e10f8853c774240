"""A call that waits for a person, and the one decision that answers it (issue 26: 1).

The ledger holds the call ``needs_input``; a decision applies once, to a call
that waits; any other decision is refused, visibly, and changes nothing.
"""

from __future__ import annotations

import pytest

from toolview.contract import (
    ObservationError,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolDecision,
    ToolResult,
    ToolWaiting,
    decode_observation,
    encode_observation,
)
from toolview.contract.status import STATUS_DISPLAY, call_status

ASKED = ToolWaiting(
    tool_call_id="c1", tool_name="Bash", args={"command": "rm -rf build"}, question="Run rm?"
)
ALLOW = ToolDecision(
    tool_call_id="c1", decision="allow", by="laptop", via="127.0.0.1", at="2026-12-07T23:00:00Z"
)
DENY = ToolDecision(tool_call_id="c1", decision="deny", by="intruder", message="no")


def waiting_thread() -> Thread:
    thread = Thread()
    thread.add(RunStarted(run_id="r"))
    thread.add(ToolCall(tool_call_id="c1", tool_name="Bash", args={"command": "rm -rf build"}))
    thread.add(ASKED)
    return thread


def test_a_waiting_call_needs_input_in_the_ledger_and_on_every_status() -> None:
    thread = waiting_thread()
    entry = thread.call("c1")
    assert entry is not None
    assert thread.state(entry) == "needs_input"
    assert call_status(entry, "needs_input") == "needs_input"
    assert STATUS_DISPLAY["needs_input"].label == "Needs input"
    assert thread.ledger.waiting() == ["c1"]
    assert thread.ledger.pending() == []
    assert thread.open_calls() == 1
    assert entry.waiting == ASKED


def test_a_decision_applies_once_and_the_second_is_refused_changing_nothing() -> None:
    thread = waiting_thread()
    thread.add(ALLOW)
    entry = thread.call("c1")
    assert entry is not None
    assert thread.state(entry) == "pending"  # the agent runs it now; its result settles it
    assert entry.decision == ALLOW
    assert thread.ledger.waiting() == []
    notes_before = len(thread.entries)
    thread.add(DENY)
    assert thread.state(entry) == "pending"
    assert entry.decision == ALLOW
    assert len(thread.entries) == notes_before + 1
    assert "did not wait; refused" in thread.entries[-1].text  # type: ignore[union-attr]


@pytest.mark.parametrize("before", ["running", "done", "unknown"])
def test_a_decision_for_a_call_that_does_not_wait_is_refused(before: str) -> None:
    thread = Thread()
    if before != "unknown":
        thread.add(ToolCall(tool_call_id="c1", tool_name="Bash", args={}))
    if before == "done":
        thread.add(ToolResult("c1", "Bash", "ok", complete=True, is_error=False))
    thread.add(ALLOW)
    entry = thread.call("c1")
    if before == "unknown":
        assert entry is None  # no call is made up for it
    else:
        assert entry is not None
        assert entry.decision is None
        assert thread.state(entry) == ("done" if before == "done" else "pending")
    assert "did not wait; refused" in thread.entries[-1].text  # type: ignore[union-attr]


def test_the_agent_s_own_result_or_the_run_ending_settles_a_waiting_call() -> None:
    answered = waiting_thread()
    answered.add(ToolResult("c1", "Bash", "denied", complete=True, is_error=True))
    entry = answered.call("c1")
    assert entry is not None
    assert answered.state(entry) == "error"
    ended = waiting_thread()
    ended.add(RunEnded(run_id="r", outcome="aborted"))
    assert ended.state(ended.calls()[0]) == "aborted"
    ended.add(ALLOW)  # too late: it no longer waits
    assert ended.calls()[0].decision is None


def test_waiting_and_decisions_cross_the_wire_and_bad_ones_are_refused() -> None:
    for observation in (ASKED, ALLOW, DENY):
        assert decode_observation(encode_observation(observation)) == observation
    line = b'{"kind":"tool-decision","toolCallId":"c1","decision":"maybe","by":"x"}'
    with pytest.raises(ObservationError) as raised:
        decode_observation(line)
    assert raised.value.path == "$.decision"
    with pytest.raises(ValueError, match="decision"):
        ToolDecision(tool_call_id="c1", decision="maybe", by="x")  # type: ignore[arg-type]
