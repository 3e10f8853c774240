"""AG-UI: the thread as protocol events, validated by the ag-ui-protocol models.

The official TypeScript SDK judges the same streams in test_agui_conformance.py;
here each mapping rule, and each fix that SDK's checks called for, is pinned
one by one against the Python builder.
"""

from __future__ import annotations

import json
from typing import Any

from ag_ui.core import Event
from pydantic import TypeAdapter

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.safety import redact, redact_json
from toolview.wire.agui import AguiTranslator, encode_sse
from toolview.wire.follow import Redactor

EVENT: TypeAdapter[Event] = TypeAdapter(Event)
REDACTOR = Redactor(text=redact, json=redact_json)
SECRET = "AKIAIOSFODNN7EXAMPLE"


def translate(observations: list[Observation]) -> list[dict[str, Any]]:
    """The events as their wire JSON, each parsed back through the protocol's own union."""
    translator = AguiTranslator("t1", REDACTOR)
    events = [e for seq, o in enumerate(observations, 1) for e in translator.push(seq, o)]
    wire = [json.loads(encode_sse(e)[len("data: ") :]) for e in [*events, *translator.finish()]]
    for event in wire:
        EVENT.validate_python(event)
    return wire


def check_lifecycle(events: list[dict[str, Any]]) -> None:
    """A legal order: everything inside a run, calls opened before args/end/result."""
    open_calls: set[str] = set()
    ended: set[str] = set()
    running = False
    for event in events:
        kind = event["type"]
        if kind == "RUN_STARTED":
            assert not running
            running = True
            continue
        assert running, f"{kind} outside a run"
        if kind in ("RUN_FINISHED", "RUN_ERROR"):
            running = False
        elif kind == "TOOL_CALL_START":
            assert event["toolCallId"] not in open_calls | ended, "a call id announced twice"
            open_calls.add(event["toolCallId"])
        elif kind in ("TOOL_CALL_ARGS", "TOOL_CALL_END"):
            assert event["toolCallId"] in open_calls
            if kind == "TOOL_CALL_END":
                open_calls.discard(event["toolCallId"])
                ended.add(event["toolCallId"])
        elif kind == "TOOL_CALL_RESULT":
            assert event["toolCallId"] in ended
    assert not running


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def test_a_run_with_a_call_and_a_message_maps_to_the_protocol_lifecycle() -> None:
    descriptor = Descriptor("shell", {"command": "ls", "exitCode": 0})
    events = translate(
        [
            RunStarted("r1"),
            Message("user", "list it"),
            ToolCall("c1", "shell", {"command": "ls"}),
            ToolResult("c1", "shell", "a", complete=False, is_error=False),
            ToolResult(
                "c1", "shell", "a\nb\n", complete=True, is_error=False, descriptor=descriptor
            ),
            RunEnded("r1", "completed"),
        ]
    )
    check_lifecycle(events)
    assert [e["type"] for e in events] == [
        "RUN_STARTED",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",  # one: the partial yields no event
        "RUN_FINISHED",
    ]
    result = events[7]
    assert result["metadata"]["toolview:result"] == {
        "kind": "shell",
        "props": {"command": "ls", "exitCode": 0},
    }
    assert result["content"] == "a\nb\n"


def test_a_refused_call_is_a_call_whose_result_carries_the_refusal() -> None:
    events = translate([ToolRefused("c9", "shell", "destructive", guard="rules.toml")])
    check_lifecycle(events)
    result = events[-2]
    assert result["type"] == "TOOL_CALL_RESULT"
    assert result["content"] == "refused by rules.toml: destructive"
    assert result["metadata"] == {
        "toolview:refused": {"reason": "destructive", "guard": "rules.toml"}
    }


def test_observations_outside_a_run_are_wrapped_in_an_implicit_one() -> None:
    events = translate([Message("assistant", "hi"), RunStarted("r2"), RunEnded("r2", "error")])
    check_lifecycle(events)
    assert [e["type"] for e in events][-1] == "RUN_ERROR"


def test_secrets_in_args_and_results_are_redacted() -> None:
    events = translate(
        [
            ToolCall("c1", "shell", {"env": f"AWS={SECRET}"}),
            ToolResult("c1", "shell", f"key {SECRET}", complete=True, is_error=False),
        ]
    )
    assert SECRET not in json.dumps(events)


# -- fixes the AG-UI SDK's checks called for -----------------------------------------


def test_secrets_in_tool_names_and_guards_are_redacted() -> None:
    """A result or refusal for a call never announced announces it under its (redacted) name."""
    events = translate(
        [
            ToolResult("c1", f"t {SECRET}", "x", complete=True, is_error=False),
            ToolRefused("c2", f"t {SECRET}", "no", guard=f"g {SECRET}"),
        ]
    )
    check_lifecycle(events)
    assert SECRET not in json.dumps(events)
    assert "[redacted" in of_type(events, "TOOL_CALL_RESULT")[1]["content"]


def test_a_call_id_used_again_is_a_new_call_not_glued_onto_the_old_one() -> None:
    """The client appends ARGS to a known call id: a reused id would merge two calls' JSON."""
    events = translate(
        [
            ToolCall("c1", "read", {"path": "a"}),
            ToolResult("c1", "read", "x", complete=True, is_error=False),
            ToolCall("c1", "read", {"path": "b"}),
            ToolResult("c1", "read", "y", complete=True, is_error=False),
        ]
    )
    check_lifecycle(events)
    assert [e["toolCallId"] for e in of_type(events, "TOOL_CALL_START")] == ["c1", "c1~2"]
    first, second = of_type(events, "TOOL_CALL_RESULT")
    assert (first["toolCallId"], first["content"]) == ("c1", "x")
    assert (second["toolCallId"], second["content"]) == ("c1~2", "y")
    assert second["metadata"]["toolview:toolCallId"] == "c1"
    assert "toolview:toolCallId" not in first["metadata"]


def test_every_message_id_is_unique() -> None:
    events = translate(
        [
            ToolCall("c1", "shell", {}),
            ToolResult("c1", "shell", "one", complete=True, is_error=False),
            ToolResult("c1", "shell", "two", complete=True, is_error=False),
            Message("user", "x"),
        ]
    )
    ids = [
        e["messageId"] for e in events if e["type"] in ("TEXT_MESSAGE_START", "TOOL_CALL_RESULT")
    ]
    parents = [e["parentMessageId"] for e in of_type(events, "TOOL_CALL_START")]
    assert len(set(ids + parents)) == len(ids + parents) == 4


def test_a_call_without_a_result_when_its_run_ends_is_aborted() -> None:
    events = translate(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {}),
            ToolResult("c1", "shell", "so far", complete=False, is_error=False),
            ToolCall("c2", "shell", {}),
            ToolResult("c2", "shell", "ok", complete=True, is_error=False),
            RunEnded("r1", "error"),
        ]
    )
    check_lifecycle(events)
    assert [e["type"] for e in events[-3:]] == ["TOOL_CALL_RESULT", "TOOL_CALL_RESULT", "RUN_ERROR"]
    aborted = events[-2]
    assert aborted["toolCallId"] == "c1"
    assert aborted["metadata"] == {"toolview:aborted": {"runOutcome": "error"}}


def test_a_call_in_a_run_still_open_stays_pending() -> None:
    translator = AguiTranslator("t1", REDACTOR)
    events = translator.push(1, RunStarted("r1")) + translator.push(2, ToolCall("c1", "shell", {}))
    assert translator.finish_implicit() == []  # the route leaves a real run open
    assert not [e for e in events if e.type == "TOOL_CALL_RESULT"]


def test_ending_another_run_does_not_end_the_open_one() -> None:
    events = translate(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {}),
            RunStarted("r2"),  # r1 is closed on the wire, yet its call may still answer
            RunEnded("r1", "aborted"),
            Message("user", "in r2"),
            RunEnded("r2", "completed"),
        ]
    )
    check_lifecycle(events)
    runs = [(e["type"], e.get("runId")) for e in events if e["type"].startswith("RUN_")]
    assert runs == [
        ("RUN_STARTED", "r1"),
        ("RUN_FINISHED", "r1"),
        ("RUN_STARTED", "r2"),
        ("RUN_FINISHED", "r2"),
    ]
    assert events[-1]["outcome"] == {"type": "success"}
    (aborted,) = of_type(events, "TOOL_CALL_RESULT")
    assert aborted["metadata"] == {"toolview:aborted": {"runOutcome": "aborted"}}


def test_a_call_seen_after_the_last_run_ended_is_answered_aborted_at_once() -> None:
    """The thread shows it aborted at once (issue 22): AG-UI no longer leaves it running."""
    observations: list[Observation] = [
        RunStarted("r1"),
        RunEnded("r1", "error", "the model went away"),
        ToolCall("late", "shell", {}),
    ]
    events = translate(observations)
    check_lifecycle(events)
    (aborted,) = of_type(events, "TOOL_CALL_RESULT")
    assert aborted["toolCallId"] == "late"
    reason = {"runOutcome": "error", "reason": "the model went away"}
    assert aborted["metadata"] == {"toolview:aborted": reason}
    # a run starting again and ending reaches it again: it is not answered twice
    later = translate([*observations, RunStarted("r2"), RunEnded("r2", "completed")])
    assert len(of_type(later, "TOOL_CALL_RESULT")) == 1


def test_a_run_ended_with_no_run_open_yields_nothing() -> None:
    assert translate([RunEnded("r1", "completed"), RunEnded("r1", "error")]) == []


def test_a_resumed_stream_pairs_ids_that_held_a_secret_as_an_unbroken_one_does() -> None:
    """``skip`` (the replay before a resume point) maps ids exactly as ``push`` sends them."""
    call, run = f"call-{SECRET}", f"run-{SECRET}"
    observations: list[Observation] = [
        RunStarted(run),
        ToolCall(call, "shell", {}),
        ToolResult(call, "shell", "ok", complete=True, is_error=False),
        RunEnded(run, "completed"),
    ]
    whole = AguiTranslator("t1", REDACTOR)
    unbroken = [e for seq, o in enumerate(observations, 1) for e in whole.push(seq, o)]
    resumed = AguiTranslator("t1", REDACTOR)
    for seq, observation in enumerate(observations[:2], 1):
        resumed.skip(seq, observation)
    after = [e for seq, o in enumerate(observations[2:], 3) for e in resumed.push(seq, o)]
    assert [encode_sse(e) for e in after] == [encode_sse(e) for e in unbroken[-len(after) :]]
    assert [e.type for e in after] == ["TOOL_CALL_RESULT", "RUN_FINISHED"]
    assert SECRET not in "".join(encode_sse(e) for e in unbroken)


def test_an_aborted_call_keeps_its_last_partial_output_and_the_runs_reason() -> None:
    events = translate(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {}),
            ToolResult("c1", "shell", "tick1\n", complete=False, is_error=False),
            ToolResult("c1", "shell", f"tick1\ntick2 {SECRET}\n", complete=False, is_error=False),
            RunEnded("r1", "error", f"ValueError: bad key {SECRET}"),
        ]
    )
    check_lifecycle(events)
    (aborted,) = of_type(events, "TOOL_CALL_RESULT")
    assert aborted["content"].startswith("tick1\ntick2 ")
    assert aborted["content"].endswith("before the call returned")
    assert "ValueError: bad key" in aborted["content"]
    assert aborted["metadata"]["toolview:aborted"]["runOutcome"] == "error"
    (error,) = of_type(events, "RUN_ERROR")
    assert error["message"].startswith("ValueError: bad key ")
    assert SECRET not in json.dumps(events)


def test_a_call_answered_after_its_partials_carries_no_stale_partial() -> None:
    events = translate(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {}),
            ToolResult("c1", "shell", "half", complete=False, is_error=False),
            ToolResult("c1", "shell", "whole", complete=True, is_error=False),
            RunStarted("r2"),
            ToolCall("c1", "shell", {}),  # the same id again: a new call, never answered
            RunEnded("r2", "aborted"),
        ]
    )
    results = of_type(events, "TOOL_CALL_RESULT")
    assert [r["content"] for r in results] == [
        "whole",
        "aborted: the run ended before the call returned",
    ]


def test_a_call_whose_id_is_used_again_before_its_answer_is_still_answered_when_its_run_ends() -> (
    None
):
    """Both occurrences are calls of the run: each gets its aborted result, none is left open."""
    events = translate(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {"n": 1}),
            ToolCall("c1", "shell", {"n": 2}),
            RunEnded("r1", "aborted"),
        ]
    )
    results = of_type(events, "TOOL_CALL_RESULT")
    assert [r["toolCallId"] for r in results] == ["c1", "c1~2"]
    assert all("toolview:aborted" in r["metadata"] for r in results)
