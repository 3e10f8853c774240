"""A waiting call in the AG-UI stream: ``RUN_FINISHED`` with an interrupt, a decision resumes.

Judged by the protocol's own client (``@ag-ui/client``'s ``verifyEvents`` and
``@ag-ui/core``'s schemas, ``tests/node/agui_verify.mjs``), as every AG-UI
stream toolview sends is.
"""

from __future__ import annotations

from test_agui_conformance import assert_conforms, translate

from toolview.contract import RunEnded, RunStarted, ToolCall, ToolDecision, ToolResult, ToolWaiting

FORM = {"type": "object", "properties": {"seats": {"type": "integer"}}, "required": ["seats"]}
ASKED = [
    RunStarted(run_id="r1"),
    ToolCall(tool_call_id="e1", tool_name="elicitation", args={"message": "Which table?"}),
    ToolWaiting(tool_call_id="e1", tool_name="elicitation", question="Which table?", schema=FORM),
]
ANSWERED = [
    ToolDecision(tool_call_id="e1", decision="answer", by="ann", answer={"seats": 2}),
    ToolResult(
        tool_call_id="e1",
        tool_name="elicitation",
        text='{"action": "accept"}',
        complete=True,
        is_error=False,
    ),
    RunEnded(run_id="r1", outcome="completed"),
]


def test_a_waiting_call_finishes_the_run_with_an_interrupt_and_its_decision_resumes() -> None:
    events = translate([*ASKED, *ANSWERED])
    kinds = [e["type"] for e in events]
    assert kinds == [
        "RUN_STARTED",
        *["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END"],
        "RUN_FINISHED",
        "RUN_STARTED",
        "TOOL_CALL_RESULT",
        "RUN_FINISHED",
    ]
    (interrupt,) = events[4]["outcome"]["interrupts"]
    assert events[4]["outcome"]["type"] == "interrupt"
    assert interrupt["toolCallId"] == "e1"
    assert interrupt["message"] == "Which table?"
    assert interrupt["responseSchema"] == FORM
    (resume,) = events[5]["input"]["resume"]
    assert resume["interruptId"] == interrupt["id"]
    assert resume["status"] == "resolved"
    assert resume["payload"]["answer"] == {"seats": 2}
    assert events[-1]["outcome"] == {"type": "success"}
    assert_conforms({"answered": events, "still-waiting": translate(ASKED)})


def test_a_deny_resumes_the_interrupt_as_cancelled() -> None:
    denied = ToolDecision(tool_call_id="e1", decision="deny", by="ann", message="no")
    events = translate([*ASKED, denied, *ANSWERED[1:]])
    (resume,) = next(e for e in events if e.get("input"))["input"]["resume"]
    assert resume["status"] == "cancelled"
    assert_conforms({"denied": events})


def test_a_decision_for_a_call_that_never_waited_resumes_nothing() -> None:
    stray = ToolDecision(tool_call_id="nobody", decision="allow", by="ann")
    events = translate([RunStarted(run_id="r1"), stray, RunEnded(run_id="r1", outcome="completed")])
    assert [e["type"] for e in events] == ["RUN_STARTED", "RUN_FINISHED"]
