"""``POST /v1/traces`` refuses what the observations endpoint refuses, and stores nothing of it."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from otlp_spans import agent_run, otlp_json, tracing
from toolview_servers import ToolviewServer

TOKEN = "otlp-refusal-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}
PROTOBUF = {**AUTH, "content-type": "application/x-protobuf"}
JSON = {**AUTH, "content-type": "application/json"}
ID = "0af7651916cd43dd8448eb211c80319c"


@pytest.fixture
def server(
    served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> ToolviewServer:
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    return served("--db", str(tmp_path / "otlp.db"), "--body-limit", "1k")


def spans_json(span: dict[str, object]) -> bytes:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}).encode()


TOOL_SPAN = {"traceId": ID, "spanId": "b7ad6b7169203331", "name": "execute_tool ls"}

MALFORMED = {
    "a truncated protobuf field": (PROTOBUF, b"\x0a\xff\xff\xff\x0f", 400, "protobuf"),
    "protobuf of the wrong wire type": (PROTOBUF, b"\x0b", 400, "protobuf"),
    "not JSON": (JSON, b'{"resourceSpans": [', 400, "malformed JSON"),
    "a JSON array": (JSON, b"[]", 400, "is an object"),
    "JSON of the wrong shape": (JSON, b'{"resourceSpans": "all"}', 400, "in JSON"),
    "a base64 trace id": (JSON, spans_json({**TOOL_SPAN, "traceId": "Cvd"}), 400, "hex"),
    "a plain-text body": ({**AUTH, "content-type": "text/plain"}, b"spans", 415, "x-protobuf"),
    "no content type": (AUTH, b"spans", 415, "x-protobuf"),
    "JSON Lines": ({**AUTH, "content-type": "application/x-ndjson"}, b"{}", 415, "x-protobuf"),
    "brotli": ({**JSON, "content-encoding": "br"}, b"{}", 415, "gzip"),
    "gzip that is not": ({**JSON, "content-encoding": "gzip"}, b"{}", 400, "gzip"),
    "over the body limit": (JSON, b" " * 2048, 413, "limit"),
    "gzip inflating past the limit": (
        {**PROTOBUF, "content-encoding": "gzip"},
        gzip.compress(b"\x00" * 100_000),
        413,
        "inflates",
    ),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_a_malformed_export_is_refused_and_nothing_is_stored(
    server: ToolviewServer, case: str
) -> None:
    headers, body, status, reason = MALFORMED[case]
    answer = httpx.post(f"{server.url}/v1/traces", content=body, headers=headers, timeout=60)
    assert answer.status_code == status, answer.text
    assert reason in answer.json()["error"]
    threads = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60).json()["threads"]
    assert threads == []


def test_without_the_token_nothing_is_stored(server: ToolviewServer) -> None:
    provider, memory = tracing(None)
    agent_run(provider.get_tracer("test"))
    spans = memory.get_finished_spans()
    exporter = OTLPSpanExporter(endpoint=f"{server.url}/v1/traces", timeout=60)
    assert exporter.export(spans) is SpanExportResult.FAILURE
    body = encode_spans(spans).SerializeToString()
    wrong = {**PROTOBUF, "authorization": "Bearer not-the-token"}
    answer = httpx.post(f"{server.url}/v1/traces", content=body, headers=wrong, timeout=60)
    assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"
    threads = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60).json()["threads"]
    assert threads == []


def test_another_site_may_not_post_traces(server: ToolviewServer) -> None:
    provider, memory = tracing(None)
    agent_run(provider.get_tracer("test"))
    document = otlp_json(memory.get_finished_spans())
    for header in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
        answer = httpx.post(
            f"{server.url}/v1/traces", json=document, headers={**AUTH, **header}, timeout=60
        )
        assert answer.status_code == 403
    threads = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60).json()["threads"]
    assert threads == []
