"""AG-UI: the thread as protocol events, validated by the ag-ui-protocol models."""

from __future__ import annotations

import json

from ag_ui.core import BaseEvent, Event, EventType
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

EVENT = TypeAdapter(Event)
REDACTOR = Redactor(text=redact, json=redact_json)


def translate(observations: list[Observation]) -> list[BaseEvent]:
    translator = AguiTranslator("t1", REDACTOR)
    events = [e for seq, o in enumerate(observations, 1) for e in translator.push(seq, o)]
    return events + translator.finish()


def check_lifecycle(events: list[BaseEvent]) -> None:
    """Every event parses back through the protocol's own union, in a legal order."""
    open_calls: set[str] = set()
    ended: set[str] = set()
    running = False
    for event in events:
        parsed = EVENT.validate_python(json.loads(encode_sse(event)[len("data: ") :]))
        kind = parsed.type
        if kind == EventType.RUN_STARTED:
            assert not running
            running = True
            continue
        assert running, f"{kind} outside a run"
        if kind in (EventType.RUN_FINISHED, EventType.RUN_ERROR):
            running = False
        elif kind == EventType.TOOL_CALL_START:
            open_calls.add(parsed.tool_call_id)
        elif kind in (EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END):
            assert parsed.tool_call_id in open_calls
            if kind == EventType.TOOL_CALL_END:
                ended.add(parsed.tool_call_id)
        elif kind == EventType.TOOL_CALL_RESULT:
            assert parsed.tool_call_id in ended
    assert not running


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
    types = [e.type for e in events]
    assert types == [
        EventType.RUN_STARTED,
        EventType.TEXT_MESSAGE_START,
        EventType.TEXT_MESSAGE_CONTENT,
        EventType.TEXT_MESSAGE_END,
        EventType.TOOL_CALL_START,
        EventType.TOOL_CALL_ARGS,
        EventType.TOOL_CALL_END,
        EventType.TOOL_CALL_RESULT,  # one: the partial yields no event
        EventType.RUN_FINISHED,
    ]
    result = events[7]
    assert result.metadata is not None
    assert result.metadata["toolview:result"] == {
        "kind": "shell",
        "props": {"command": "ls", "exitCode": 0},
    }
    assert result.content == "a\nb\n"  # type: ignore[attr-defined]


def test_a_refused_call_is_a_call_whose_result_carries_the_refusal() -> None:
    events = translate([ToolRefused("c9", "shell", "destructive", guard="rules.toml")])
    check_lifecycle(events)
    result = events[-2]
    assert result.type == EventType.TOOL_CALL_RESULT
    assert result.content == "refused by rules.toml: destructive"  # type: ignore[attr-defined]
    assert result.metadata == {"toolview:refused": {"reason": "destructive", "guard": "rules.toml"}}
    assert "toolview:result" not in result.metadata


def test_observations_outside_a_run_are_wrapped_in_an_implicit_one() -> None:
    events = translate([Message("assistant", "hi"), RunStarted("r2"), RunEnded("r2", "error")])
    check_lifecycle(events)
    assert [e.type for e in events][-1] == EventType.RUN_ERROR


def test_secrets_in_args_and_results_are_redacted() -> None:
    secret = "AKIAIOSFODNN7EXAMPLE"
    events = translate(
        [
            ToolCall("c1", "shell", {"env": f"AWS={secret}"}),
            ToolResult("c1", "shell", f"key {secret}", complete=True, is_error=False),
        ]
    )
    assert secret not in "".join(encode_sse(e) for e in events)
