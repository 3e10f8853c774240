"""GenAI spans made with the real OpenTelemetry SDK, and what toolview must make of them.

``tracing(url, …)`` is a tracer provider that exports every span as it ends
through the SDK's own OTLP/HTTP exporter (protobuf) to a ``toolview serve``,
keeping a copy in memory so a test knows the spans' ids and times.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf import json_format
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode, Tracer

from toolview.hosts.otel import at_from_nanos

SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
READ_RESULT = f"hello from notes.txt\ntoken={SECRET}\n"


def tracing(
    url: str | None, token: str | None = None, compression: Compression | None = None
) -> tuple[TracerProvider, InMemorySpanExporter]:
    """A provider exporting each span as it ends to ``url`` (``None``: only kept in memory)."""
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    if url is not None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        exporter = OTLPSpanExporter(
            endpoint=f"{url}/v1/traces", headers=headers, timeout=60, compression=compression
        )
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, memory


def agent_run(tracer: Tracer, between: Callable[[], None] = lambda: None) -> None:
    """An agent run as GenAI spans: a model call, a tool that reads, a tool that fails.

    The run itself completes (the agent handled the tool's failure).

    ``between`` runs after the model call's span ended (was exported) and
    before the tool spans start: a follower can connect there.
    """
    with tracer.start_as_current_span("invoke_agent demo") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        with tracer.start_as_current_span("chat gpt-test") as chat:
            chat.set_attributes(
                {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": "gpt-test",
                    "gen_ai.response.model": "gpt-test-2026-01",
                    "gen_ai.usage.input_tokens": 120,
                    "gen_ai.usage.output_tokens": 30,
                }
            )
        between()
        with tracer.start_as_current_span("execute_tool read_file") as read:
            read.set_attributes(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "read_file",
                    "gen_ai.tool.call.id": "call-1",
                    "gen_ai.tool.call.arguments": '{"path": "notes.txt"}',
                    "gen_ai.tool.call.result": READ_RESULT,
                }
            )
        with tracer.start_as_current_span(
            "execute_tool boom", record_exception=False, set_status_on_exception=False
        ) as boom:
            boom.set_attributes(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "boom",
                    "gen_ai.tool.call.id": "call-2",
                    "gen_ai.tool.call.arguments": "{}",
                    "error.type": "ValueError",
                }
            )
            boom.record_exception(ValueError("kaboom"))
            boom.set_status(Status(StatusCode.ERROR, "kaboom"))


def expected(spans: Sequence[ReadableSpan]) -> list[dict[str, Any]]:
    """What ``agent_run``'s spans must become, as the events endpoint shows them."""
    by_name = {span.name: span for span in spans}
    root = by_name["invoke_agent demo"]
    assert root.context is not None
    run_id = f"{root.context.span_id:016x}"  # no gen_ai.agent.call.id: the span's id
    chat, read, boom = (
        by_name[n] for n in ("chat gpt-test", "execute_tool read_file", "execute_tool boom")
    )
    return [
        {
            "kind": "usage",
            "at": at(chat.end_time),
            "model": "gpt-test-2026-01",
            "inputTokens": 120,
            "outputTokens": 30,
        },
        {
            "kind": "tool-call",
            "at": at(read.start_time),
            "toolCallId": "call-1",
            "toolName": "read_file",
            "args": {"path": "notes.txt"},
        },
        {
            "kind": "tool-result",
            "at": at(read.end_time),
            "toolCallId": "call-1",
            "toolName": "read_file",
            "text": "hello from notes.txt\ntoken=[redacted: github-token]\n",
            "complete": True,
            "isError": False,
        },
        {
            "kind": "tool-call",
            "at": at(boom.start_time),
            "toolCallId": "call-2",
            "toolName": "boom",
            "args": {},
        },
        {
            "kind": "tool-result",
            "at": at(boom.end_time),
            "toolCallId": "call-2",
            "toolName": "boom",
            "text": "ValueError: kaboom",
            "complete": True,
            "isError": True,
        },
        {"kind": "run-started", "at": at(root.start_time), "runId": run_id},
        {"kind": "run-ended", "at": at(root.end_time), "runId": run_id, "outcome": "completed"},
    ]


def at(nanos: int | None) -> str:
    assert nanos is not None
    moment = at_from_nanos(nanos)
    assert moment is not None
    return moment


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The export request for ``spans`` in OTLP's JSON mapping (the SDK's exporter sends protobuf).

    Made from the SDK's own protobuf encoding by protobuf's ``json_format``
    (lowerCamel names, int64 as strings), with the one change OTLP's mapping
    asks for: trace and span ids in hex, not base64.
    """
    document = json_format.MessageToDict(encode_spans(spans))
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for name in ("traceId", "spanId", "parentSpanId"):
                    if name in span:
                        span[name] = base64.b64decode(span[name]).hex()
    return document


def trace_hex(spans: Sequence[ReadableSpan]) -> str:
    """The one trace id of ``spans``, in hex."""
    traces = {span.context.trace_id for span in spans if span.context is not None}
    assert len(traces) == 1
    return f"{traces.pop():032x}"
