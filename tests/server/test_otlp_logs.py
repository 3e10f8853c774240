"""``POST /v1/logs``: Claude Code's log events stored once, hostile bodies refused as traces are."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from toolview_servers import ToolviewServer

TOKEN = "otlp-logs-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}
PROTOBUF = {**AUTH, "content-type": "application/x-protobuf"}
JSON = {**AUTH, "content-type": "application/json"}
SESSION = "5d0c7e0a-94b3-4a55-9a1d-0d6f2b1b7c11"
AT = 1_764_633_601_500_000_000  # 2025-12-02T00:00:01.500Z


def attrs(values: dict[str, str]) -> list[dict[str, Any]]:
    return [{"key": key, "value": {"stringValue": value}} for key, value in values.items()]


def record(event: str, values: dict[str, str], at: int = AT) -> dict[str, Any]:
    """A log record as Claude Code 2.1.197 sends it (every value a string)."""
    named = {"session.id": SESSION, "event.name": event, **values}
    return {
        "timeUnixNano": str(at),
        "body": {"stringValue": f"claude_code.{event}"},
        "attributes": attrs(named),
    }


FAILED_BASH = record(
    "tool_result",
    {
        "tool_name": "Bash",
        "tool_use_id": "toolu_02fail",
        "success": "false",
        "duration_ms": "250",
        "error": "Shell command failed",
        "tool_input": '{"command": "ls /no/such/dir"}',
    },
)
API_REQUEST = record(
    "api_request",
    {"model": "claude-opus-4-8", "input_tokens": "120", "output_tokens": "30"},
    AT + 1,
)


def export(*records: dict[str, Any]) -> dict[str, Any]:
    return {"resourceLogs": [{"scopeLogs": [{"logRecords": list(records)}]}]}


def protobuf(document: dict[str, Any]) -> bytes:
    request = json_format.ParseDict(document, ExportLogsServiceRequest())
    return request.SerializeToString()


@pytest.fixture
def server(
    served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> ToolviewServer:
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    return served("--db", str(tmp_path / "logs.db"), "--body-limit", "2k")


def stored(server: ToolviewServer) -> list[dict[str, Any]]:
    url = f"{server.url}/api/threads/otel-{SESSION}/events"
    answer = httpx.get(url, headers=AUTH, timeout=60)
    answer.raise_for_status()
    return [event["observation"] for event in answer.json()["events"]]


def test_a_failed_tool_result_is_its_call_and_error(server: ToolviewServer) -> None:
    body = json.dumps(export(FAILED_BASH, API_REQUEST)).encode()
    answer = httpx.post(f"{server.url}/v1/logs", content=body, headers=JSON, timeout=60)
    assert (answer.status_code, answer.json()) == (200, {})
    call, result, usage = stored(server)
    assert call == {
        "kind": "tool-call",
        "toolCallId": "toolu_02fail",
        "toolName": "Bash",
        "args": {"command": "ls /no/such/dir"},
        "at": "2025-12-02T00:00:01.250Z",  # the record's time less the call's duration
    }
    assert (result["isError"], result["text"], result["at"]) == (
        True,
        "Shell command failed",
        "2025-12-02T00:00:01.500Z",
    )
    assert (usage["kind"], usage["model"], usage["inputTokens"]) == (
        "usage",
        "claude-opus-4-8",
        120,
    )


def test_a_retried_export_is_stored_once_in_either_encoding(server: ToolviewServer) -> None:
    document = export(FAILED_BASH, API_REQUEST)
    first = httpx.post(
        f"{server.url}/v1/logs", content=json.dumps(document).encode(), headers=JSON, timeout=60
    )
    assert first.status_code == 200
    for body, headers in [
        (protobuf(document), PROTOBUF),
        (protobuf(export(API_REQUEST)), PROTOBUF),
    ]:
        again = httpx.post(f"{server.url}/v1/logs", content=body, headers=headers, timeout=60)
        assert (again.status_code, again.content) == (200, b"")
    assert [o["kind"] for o in stored(server)] == ["tool-call", "tool-result", "usage"]


def test_a_record_naming_no_session_is_counted_as_rejected(server: ToolviewServer) -> None:
    orphan = {**FAILED_BASH, "attributes": attrs({"tool_name": "Bash", "tool_use_id": "t1"})}
    orphan["body"] = {"stringValue": "claude_code.tool_result"}
    body = json.dumps(export(orphan, API_REQUEST)).encode()
    answer = httpx.post(f"{server.url}/v1/logs", content=body, headers=JSON, timeout=60)
    assert answer.json()["partialSuccess"]["rejectedLogRecords"] == "1"
    assert "session.id" in answer.json()["partialSuccess"]["errorMessage"]
    assert [o["kind"] for o in stored(server)] == ["usage"]


def logs_json(one: dict[str, Any]) -> bytes:
    return json.dumps(export(one)).encode()


MALFORMED = {
    "a truncated protobuf field": (PROTOBUF, b"\x0a\xff\xff\xff\x0f", 400, "protobuf"),
    "not JSON": (JSON, b'{"resourceLogs": [', 400, "malformed JSON"),
    "JSON of the wrong shape": (JSON, b'{"resourceLogs": "all"}', 400, "in JSON"),
    "a base64 trace id": (JSON, logs_json({**API_REQUEST, "traceId": "Cvd"}), 400, "hex"),
    "a plain-text body": ({**AUTH, "content-type": "text/plain"}, b"logs", 415, "x-protobuf"),
    "gzip that is not": ({**JSON, "content-encoding": "gzip"}, b"{}", 400, "gzip"),
    "over the body limit": (JSON, b" " * 4096, 413, "limit"),
    "gzip inflating past the limit": (
        {**PROTOBUF, "content-encoding": "gzip"},
        gzip.compress(b"\x00" * 100_000),
        413,
        "inflates",
    ),
    "no token": ({"content-type": "application/json"}, logs_json(API_REQUEST), 401, ""),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_a_hostile_export_is_refused_and_nothing_is_stored(
    server: ToolviewServer, case: str
) -> None:
    headers, body, status, reason = MALFORMED[case]
    answer = httpx.post(f"{server.url}/v1/logs", content=body, headers=headers, timeout=60)
    assert answer.status_code == status, answer.text
    assert reason in answer.json()["error"]
    threads = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60).json()["threads"]
    assert threads == []
