"""``POST /v1/traces`` on a real ``toolview serve``, fed by the real OpenTelemetry SDK exporter."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http import Compression
from otlp_spans import SECRET, agent_run, expected, otlp_json, trace_hex, tracing
from sse_client import SSEFrame, read_frames
from toolview_servers import ToolviewServer

TOKEN = "otlp-test-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}

Serve = Callable[..., ToolviewServer]


@pytest.fixture
def server(served: Serve, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ToolviewServer:
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    return served("--db", str(tmp_path / "otlp.db"))


def observations(server: ToolviewServer, thread_id: str) -> list[dict[str, Any]]:
    url = f"{server.url}/api/threads/{thread_id}/events"
    answer = httpx.get(url, headers=AUTH, timeout=60)
    answer.raise_for_status()
    return [event["observation"] for event in answer.json()["events"]]


def thread_ids(server: ToolviewServer) -> list[str]:
    answer = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60)
    return [thread["id"] for thread in answer.json()["threads"]]


def test_the_sdk_exporter_s_spans_reach_a_follower_live(server: ToolviewServer) -> None:
    """Protobuf, as the SDK sends it: the follower, connected mid-run, sees the tool calls."""
    provider, memory = tracing(server.url, TOKEN)
    tracer = provider.get_tracer("test")
    frames: list[SSEFrame] = []
    usage_seen = threading.Event()

    def follow(thread_id: str) -> None:
        def until(got: list[SSEFrame]) -> bool:
            if got:
                usage_seen.set()
            return len(got) == 7

        url = f"{server.url}/api/threads/{thread_id}/follow"
        frames.extend(read_frames(url, headers=AUTH, until=until))

    follower = threading.Thread(target=lambda: None)

    def connect() -> None:  # the model call is exported: its thread exists, the tools run next
        nonlocal follower
        follower = threading.Thread(
            target=follow, args=(f"otel-{trace_hex(memory.get_finished_spans())}",)
        )
        follower.start()
        assert usage_seen.wait(60), "the follower never saw the model call's usage"

    agent_run(tracer, between=connect)
    provider.shutdown()
    follower.join(60)
    spans = memory.get_finished_spans()
    thread_id = f"otel-{trace_hex(spans)}"
    assert thread_ids(server) == [thread_id]
    assert observations(server, thread_id) == expected(spans)
    assert [frame.data for frame in frames] == expected(spans)
    assert [frame.id for frame in frames] == [str(seq) for seq in range(1, 8)]


def test_otlp_json_is_taken_too_and_answered_in_json(server: ToolviewServer) -> None:
    provider, memory = tracing(None)
    agent_run(provider.get_tracer("test"))
    spans = memory.get_finished_spans()
    answer = httpx.post(f"{server.url}/v1/traces", json=otlp_json(spans), headers=AUTH, timeout=60)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == {}
    assert observations(server, f"otel-{trace_hex(spans)}") == expected(spans)
    assert SECRET not in answer.text


def test_a_retried_export_stores_nothing_twice(server: ToolviewServer) -> None:
    """Gzip, protobuf, then JSON: the same spans sent three times are stored once."""
    provider, memory = tracing(server.url, TOKEN, Compression.Gzip)
    agent_run(provider.get_tracer("test"))
    spans = memory.get_finished_spans()
    body = encode_spans(spans).SerializeToString()
    headers = {**AUTH, "content-type": "application/x-protobuf"}
    again = httpx.post(f"{server.url}/v1/traces", content=body, headers=headers, timeout=60)
    assert again.status_code == 200 and again.content == b""  # an empty ExportTraceServiceResponse
    as_json = httpx.post(f"{server.url}/v1/traces", json=otlp_json(spans), headers=AUTH, timeout=60)
    assert as_json.status_code == 200
    assert observations(server, f"otel-{trace_hex(spans)}") == expected(spans)


def test_spans_that_cannot_be_shown_are_counted_as_rejected(server: ToolviewServer) -> None:
    provider, memory = tracing(None)
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("execute_tool") as nameless:
        nameless.set_attribute("gen_ai.operation.name", "execute_tool")
    with tracer.start_as_current_span("execute_tool ls") as ls:
        ls.set_attributes(
            {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": "a\n"}
        )
    with tracer.start_as_current_span("GET /health"):  # not GenAI: neither shown nor rejected
        pass
    answer = httpx.post(
        f"{server.url}/v1/traces", json=otlp_json(memory.get_finished_spans()), headers=AUTH
    )
    assert answer.status_code == 200
    partial = answer.json()["partialSuccess"]
    assert partial["rejectedSpans"] == "1"  # int64: a string in OTLP's JSON
    assert "names no tool (gen_ai.tool.name)" in partial["errorMessage"]
    [thread_id] = thread_ids(server)
    shown = observations(server, thread_id)
    assert [(o["kind"], o["toolName"]) for o in shown] == [
        ("tool-call", "ls"),
        ("tool-result", "ls"),
    ]
    assert (
        shown[1]["text"] == "a\n"
        and shown[0]["toolCallId"] == f"{ls.get_span_context().span_id:016x}"
    )


def test_a_partly_new_export_stores_only_its_new_spans(server: ToolviewServer) -> None:
    """An exporter's batches overlap (a retry grown by newer spans): each span stored once.

    A guard of the spans' one-transaction write (``append_each``): base stored these too.
    """
    provider, memory = tracing(None)
    agent_run(provider.get_tracer("test"))
    spans = memory.get_finished_spans()
    headers = {**AUTH, "content-type": "application/x-protobuf"}
    for part in (spans[:2], spans):
        body = encode_spans(part).SerializeToString()
        answer = httpx.post(f"{server.url}/v1/traces", content=body, headers=headers, timeout=60)
        assert answer.status_code == 200 and answer.content == b""
    assert observations(server, f"otel-{trace_hex(spans)}") == expected(spans)


def test_an_export_is_stored_whole_or_not_at_all(server: ToolviewServer, tmp_path: Path) -> None:
    """The disk refuses the export's third record: none of its spans is stored, nor its keys."""
    provider, memory = tracing(None)
    agent_run(provider.get_tracer("test"))
    spans = memory.get_finished_spans()
    body = encode_spans(spans).SerializeToString()
    headers = {**AUTH, "content-type": "application/x-protobuf"}
    with sqlite3.connect(tmp_path / "otlp.db") as db:
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.seq = 3"
            " BEGIN SELECT RAISE(ABORT, 'no room'); END"
        )
    refused = httpx.post(f"{server.url}/v1/traces", content=body, headers=headers, timeout=60)
    assert refused.status_code == 500
    thread_id = f"otel-{trace_hex(spans)}"
    assert observations(server, thread_id) == []
    with sqlite3.connect(tmp_path / "otlp.db") as db:
        db.execute("DROP TRIGGER refuse")
    retried = httpx.post(f"{server.url}/v1/traces", content=body, headers=headers, timeout=60)
    assert retried.status_code == 200
    assert observations(server, thread_id) == expected(spans)
