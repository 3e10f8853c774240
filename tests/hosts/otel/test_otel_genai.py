"""The GenAI span mapping, sans-IO: each attribute's reading, its fallbacks and refusals."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import RunEnded, RunStarted, ToolCall, ToolResult, Usage
from toolview.hosts.otel import (
    SpanEvent,
    SpanStatus,
    TelemetrySpan,
    Unmappable,
    at_from_nanos,
    map_export,
    map_span,
    thread_id_for,
)
from toolview.server.params import THREAD_ID

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
START = 1_764_633_600_123_456_789  # 2025-12-02T00:00:00.123456789Z
END = START + 2_500_000_000


def tool_span(span_id: str = "00f067aa0ba902b7", **attributes: Any) -> TelemetrySpan:
    return TelemetrySpan(
        trace_id=TRACE,
        span_id=span_id,
        name="execute_tool read_file",
        start_ns=START,
        end_ns=END,
        attributes={"gen_ai.operation.name": "execute_tool", **attributes},
    )


def test_a_tool_span_is_a_call_and_its_result_at_the_span_s_times() -> None:
    span = tool_span(
        **{
            "gen_ai.tool.name": "read_file",
            "gen_ai.tool.call.id": "call-7",
            "gen_ai.tool.call.arguments": '{"path": "a.txt"}',
            "gen_ai.tool.call.result": "hello",
        }
    )
    mapped = map_span(span)
    assert mapped is not None
    assert mapped.key == f"otlp-{TRACE}-00f067aa0ba902b7"
    assert mapped.observations == (
        ToolCall(
            tool_call_id="call-7",
            tool_name="read_file",
            args={"path": "a.txt"},
            at="2025-12-02T00:00:00.123Z",
        ),
        ToolResult(
            tool_call_id="call-7",
            tool_name="read_file",
            text="hello",
            complete=True,
            is_error=False,
            at="2025-12-02T00:00:02.623Z",
        ),
    )


def test_missing_names_and_ids_come_from_the_span() -> None:
    mapped = map_span(tool_span())
    assert mapped is not None
    call, result = mapped.observations
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert (call.tool_name, call.tool_call_id, call.args) == ("read_file", "00f067aa0ba902b7", {})
    assert (result.text, result.is_error) == ("", False)


@pytest.mark.parametrize(
    ("arguments", "args"),
    [
        ('{"a": 1}', {"a": 1}),
        ("[1, 2]", {"arguments": [1, 2]}),
        ("not json {", {"arguments": "not json {"}),
        ({"nested": {"k": "v"}}, {"nested": {"k": "v"}}),
        (42, {"arguments": 42}),
    ],
)
def test_arguments_of_any_shape_are_kept(arguments: object, args: dict[str, object]) -> None:
    mapped = map_span(tool_span(**{"gen_ai.tool.call.arguments": arguments}))
    assert mapped is not None
    assert isinstance(mapped.observations[0], ToolCall)
    assert mapped.observations[0].args == args


def test_a_structured_result_is_its_json() -> None:
    mapped = map_span(tool_span(**{"gen_ai.tool.call.result": {"ok": True, "n": [1]}}))
    assert mapped is not None and isinstance(mapped.observations[1], ToolResult)
    assert msgspec.json.decode(mapped.observations[1].text) == {"ok": True, "n": [1]}


def failed(status: SpanStatus = SpanStatus.UNSET, message: str = "", **kw: Any) -> str:
    events = kw.pop("events", ())
    span = tool_span(**{"gen_ai.tool.call.result": "partial output", **kw})
    span = TelemetrySpan(**{**span.__dict__, "status": status, "status_message": message})
    span = TelemetrySpan(**{**span.__dict__, "events": tuple(events)})
    mapped = map_span(span)
    assert mapped is not None
    result = mapped.observations[1]
    assert isinstance(result, ToolResult)
    return result.text if result.is_error else "(not an error)"


def test_a_failure_is_an_error_with_its_message_never_its_stack() -> None:
    exception = SpanEvent(
        "exception",
        {
            "exception.type": "ValueError",
            "exception.message": "kaboom",
            "exception.stacktrace": 'Traceback (most recent call last):\n  File "x.py"',
        },
    )
    assert failed(SpanStatus.ERROR, "kaboom", events=[exception]) == "ValueError: kaboom"
    assert failed(events=[exception]) == "ValueError: kaboom"
    assert failed(SpanStatus.ERROR, "disk full") == "disk full"
    assert (
        failed(SpanStatus.ERROR, "disk full", **{"error.type": "OSError"}) == "OSError: disk full"
    )
    assert failed(**{"error.type": "timeout"}) == "timeout"
    assert "error status" in failed(SpanStatus.ERROR)
    assert failed(SpanStatus.OK) == "(not an error)"


def test_a_chat_span_is_its_usage() -> None:
    chat = TelemetrySpan(
        trace_id=TRACE,
        span_id="00f067aa0ba902b8",
        name="chat gpt",
        end_ns=END,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt",
            "gen_ai.usage.input_tokens": 10,
            "gen_ai.usage.cache_read.input_tokens": 4,
        },
    )
    mapped = map_span(chat)
    assert mapped is not None
    assert mapped.observations == (
        Usage(
            model="gpt",
            input_tokens=10,
            output_tokens=0,
            cache_read_tokens=4,
            at="2025-12-02T00:00:02.623Z",
        ),
    )


@pytest.mark.parametrize(
    "attributes",
    [
        {"gen_ai.operation.name": "create_agent", "gen_ai.usage.input_tokens": 5},
        {"gen_ai.operation.name": "chat"},  # no tokens: nothing to show
        {"http.method": "GET"},
        {"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": -3},
    ],
)
def test_other_spans_map_to_nothing(attributes: dict[str, object]) -> None:
    span = TelemetrySpan(
        trace_id=TRACE, span_id="00f067aa0ba902b9", name="x", attributes=attributes
    )
    assert map_span(span) is None


@pytest.mark.parametrize(
    ("span", "reason"),
    [
        (
            TelemetrySpan(
                TRACE,
                "00f067aa0ba902b7",
                "execute_tool",
                attributes={"gen_ai.operation.name": "execute_tool"},
            ),
            "names no tool",
        ),
        (
            TelemetrySpan(
                "00" * 16,
                "00f067aa0ba902b7",
                "execute_tool ls",
                attributes={"gen_ai.operation.name": "execute_tool"},
            ),
            "trace id",
        ),
        (
            TelemetrySpan(
                TRACE, "ab", "execute_tool ls", attributes={"gen_ai.operation.name": "execute_tool"}
            ),
            "span id",
        ),
        (tool_span(**{"gen_ai.tool.call.id": ".."}), "may not be"),
    ],
)
def test_a_genai_span_that_cannot_be_shown_is_unmappable(span: TelemetrySpan, reason: str) -> None:
    with pytest.raises(Unmappable, match=reason):
        map_span(span)


def test_a_conversation_names_the_thread_of_its_whole_trace() -> None:
    agent = TelemetrySpan(
        TRACE,
        "00f067aa0ba902ba",
        "invoke_agent",
        START - 1,
        END,
        {"gen_ai.conversation.id": "chat 1/2"},
    )
    nameless = TelemetrySpan(
        TRACE,
        "00f067aa0ba902bb",
        "execute_tool",
        attributes={"gen_ai.operation.name": "execute_tool"},
    )
    export = map_export([tool_span(), agent, nameless])
    [(thread_id, _)] = export.mapped
    assert thread_id == thread_id_for(TRACE, "chat 1/2") != thread_id_for(TRACE, "chat-1-2")
    assert len(export.rejected) == 1 and "names no tool" in export.rejected[0]
    assert thread_id_for(TRACE) == f"otel-{TRACE}"
    assert thread_id_for(TRACE, "conv-1") == "otel-conv-1"


@given(st.text(max_size=300))
def test_every_conversation_id_makes_a_thread_id_the_server_takes(conversation: str) -> None:
    assert THREAD_ID.fullmatch(thread_id_for(TRACE, conversation))


def test_a_span_with_no_time_maps_to_no_time() -> None:
    assert at_from_nanos(0) is None and at_from_nanos(-1) is None
    assert at_from_nanos(START) == "2025-12-02T00:00:00.123Z"


def test_an_agent_span_is_its_run_ended_with_the_reason_it_failed() -> None:
    exception = SpanEvent("exception", {"exception.type": "ValueError", "exception.message": "x"})
    agent = TelemetrySpan(
        TRACE,
        "00f067aa0ba902bc",
        "invoke_agent demo",
        START,
        END,
        {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.call.id": "run-9"},
        SpanStatus.ERROR,
        events=(exception,),
    )
    mapped = map_span(agent)
    assert mapped is not None
    assert mapped.observations == (
        RunStarted(run_id="run-9", at="2025-12-02T00:00:00.123Z"),
        RunEnded(
            run_id="run-9", outcome="error", reason="ValueError: x", at="2025-12-02T00:00:02.623Z"
        ),
    )


def test_openinference_tool_and_llm_spans_are_read_too() -> None:
    tool = TelemetrySpan(
        TRACE,
        "00f067aa0ba902bd",
        "get_weather",
        START,
        END,
        {
            "openinference.span.kind": "TOOL",
            "tool.name": "get_weather",
            "input.value": '{"city": "Oslo"}',
            "output.value": '{"temp": 3}',
            "session.id": "s-1",
        },
    )
    llm = TelemetrySpan(
        TRACE,
        "00f067aa0ba902be",
        "ChatCompletion",
        START,
        END,
        {
            "openinference.span.kind": "LLM",
            "llm.model_name": "gpt-4o",
            "llm.token_count.prompt": 7,
            "llm.token_count.completion": 2,
        },
    )
    export = map_export([tool, llm])
    assert [thread_id for thread_id, _ in export.mapped] == ["otel-s-1", "otel-s-1"]
    (call, result), (counted,) = (mapped.observations for _, mapped in export.mapped)
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert (call.tool_call_id, call.tool_name, call.args) == (
        "00f067aa0ba902bd",
        "get_weather",
        {"city": "Oslo"},
    )
    assert (result.text, result.is_error) == ('{"temp": 3}', False)
    assert counted == Usage(
        model="gpt-4o", input_tokens=7, output_tokens=2, at="2025-12-02T00:00:02.623Z"
    )


def test_a_span_with_both_conventions_is_read_as_genai() -> None:
    span = tool_span(**{"openinference.span.kind": "LLM", "gen_ai.tool.name": "ls"})
    mapped = map_span(span)
    assert mapped is not None
    assert [type(o) for o in mapped.observations] == [ToolCall, ToolResult]
