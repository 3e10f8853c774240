"""Every string field of every observation is redacted on every browser-bound endpoint.

The matrix: a fake secret (a GitHub token, an AWS key id) put in ONE string
field of one observation of a thread that holds every observation type, the
thread posted to a real server (uvicorn on a loopback port), then read from
every endpoint and mode: ``/events``, ``/follow`` (elide, live), AG-UI (SSE,
JSON, live), and the page with its fragment. The secret must not appear in
any byte of any answer, and the routing must still pair: a call whose id
held a secret keeps ONE opaque id on every observation and frame, its AG-UI
result answers its start, and the page's fragment route finds the call by
that id.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from server_threads import ThreadedServer

from toolview.wire.log.sqlite import SQLiteLog

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
AWS = "AKIA" + "BUN2MRLU4QRB37R6"
SECRETS = {"github": GITHUB, "aws": AWS}
END = "the-end-marker"
NDJSON = {"content-type": "application/x-ndjson"}

# Every string field a producer controls, by observation; ``{}`` is where the secret goes.
FIELDS = {
    "run-started/ended.runId": ("run_id", "run-{}"),
    "tool-call.toolCallId (pairs call, partial, result)": ("call_id", "call-{}"),
    "tool-call.toolName": ("call_name", "deploy --token {}"),
    "tool-call.args key": ("args_key", "{}"),
    "tool-call.args value": ("args_value", "--token={}"),
    "partial.toolName": ("partial_name", "deploy {}"),
    "partial.text": ("partial_text", "pushing with {}\nstill going\n"),
    "partial.descriptor.kind": ("partial_kind", "kind-{}"),
    "partial.descriptor.props": ("partial_props", "key {}"),
    "result.toolName": ("result_name", "deploy {}"),
    "result.text": ("result_text", "pushed with {} ok"),
    "result.descriptor.kind": ("result_kind", "kind-{}"),
    "result.descriptor.props key": ("result_props_key", "{}"),
    "refused.toolCallId": ("refused_id", "refused-{}"),
    "refused.toolName": ("refused_name", "rm {}"),
    "refused.reason": ("refused_reason", "would leak {}"),
    "refused.guard": ("refused_guard", "guard-{}"),
    "running.toolCallId (partial only, aborted)": ("running_id", "running-{}"),
    "running.toolName": ("running_name", "tail {}"),
    "message.text": ("message_text", "use {} please"),
}


def scenario(**values: str) -> list[dict[str, Any]]:
    """One thread with every observation type; ``values`` overrides one field."""
    v = {
        "run_id": "run-1",
        "call_id": "call-1",
        "call_name": "deploy",
        "args_key": "target",
        "args_value": "prod",
        "partial_name": "deploy",
        "partial_text": "pushing\nstill going\n",
        "partial_kind": "shell",
        "partial_props": "plain",
        "result_name": "deploy",
        "result_text": "pushed ok",
        "result_kind": "shell",
        "result_props_key": "exitCode",
        "refused_id": "refused-1",
        "refused_name": "rm",
        "refused_reason": "not allowed",
        "refused_guard": "rules",
        "running_id": "running-1",
        "running_name": "tail",
        "message_text": "hello",
        **values,
    }
    call, running = v["call_id"], v["running_id"]
    return [
        {"kind": "run-started", "runId": v["run_id"]},
        {
            "kind": "tool-call",
            "toolCallId": call,
            "toolName": v["call_name"],
            "args": {"opts": {v["args_key"]: [v["args_value"]]}},
        },
        _result(call, v["partial_name"], v["partial_text"], False, v["partial_kind"])
        | {"descriptor": {"kind": v["partial_kind"], "props": {"note": v["partial_props"]}}},
        _result(call, v["result_name"], v["result_text"], True, v["result_kind"])
        | {"descriptor": {"kind": v["result_kind"], "props": {v["result_props_key"]: 0}}},
        {
            "kind": "tool-refused",
            "toolCallId": v["refused_id"],
            "toolName": v["refused_name"],
            "reason": v["refused_reason"],
            "guard": v["refused_guard"],
        },
        {"kind": "tool-call", "toolCallId": running, "toolName": v["running_name"], "args": {}},
        _result(running, v["running_name"], "line 1\n", False, "shell"),
        {"kind": "message", "role": "user", "text": v["message_text"]},
        {"kind": "run-ended", "runId": v["run_id"], "outcome": "completed"},
        {"kind": "message", "role": "assistant", "text": END},
    ]


def _result(call: str, name: str, text: str, complete: bool, kind: str) -> dict[str, Any]:
    return {
        "kind": "tool-result",
        "toolCallId": call,
        "toolName": name,
        "text": text,
        "complete": complete,
        "isError": False,
    }


CASES = [
    (label, secret_name, attribute, template.format(secret))
    for label, (attribute, template) in FIELDS.items()
    for secret_name, secret in SECRETS.items()
]


def read_stream(url: str, until: Callable[[bytes], bool], timeout: float = 60.0) -> bytes:
    """The raw bytes of an endless SSE stream, read until ``until(bytes so far)``."""
    body = b""
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", url, timeout=timeout) as response:
        assert response.status_code == 200, (url, response.status_code)
        for chunk in response.iter_raw():
            body += chunk
            if until(body):
                return body
            if time.monotonic() > deadline:
                break
    raise AssertionError(f"{url}: the stream never reached its end; got {body[-300:]!r}")


def _complete_event_after_end(body: bytes) -> bool:
    """The end marker has crossed, and the stream is at an event boundary after it."""
    return END.encode() in body and body.endswith((b"\r\n\r\n", b"\n\n"))


ENDPOINTS: dict[str, Callable[[str, str], bytes]] = {
    "events": lambda base, t: httpx.get(f"{base}/api/threads/{t}/events").content,
    "follow elide": lambda base, t: read_stream(
        f"{base}/api/threads/{t}/follow", _complete_event_after_end
    ),
    "follow live": lambda base, t: read_stream(
        f"{base}/api/threads/{t}/follow?mode=live", _complete_event_after_end
    ),
    "agui sse": lambda base, t: httpx.get(f"{base}/api/threads/{t}/agui").content,
    "agui json": lambda base, t: httpx.get(f"{base}/api/threads/{t}/agui?format=json").content,
    "page": lambda base, t: httpx.get(f"{base}/threads/{t}").content,
    "page fragment": lambda base, t: httpx.get(f"{base}/api/threads/{t}/html").content,
    "agui follow": lambda base, t: read_stream(
        f"{base}/api/threads/{t}/agui?follow=1",
        lambda body: (
            b"TEXT_MESSAGE_END" in body.rpartition(END.encode())[2]
            and _complete_event_after_end(body)
        ),
    ),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    path: Path = tmp_path_factory.mktemp("fields") / "log.db"
    with ThreadedServer(lambda: SQLiteLog(path), keepalive=1.0) as served:
        yield served


def publish(server: ThreadedServer, thread: str, observations: list[dict[str, Any]]) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": thread}).raise_for_status()
    body = "".join(json.dumps(o) + "\n" for o in observations)
    url = f"{server.url}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers=NDJSON).raise_for_status()


def secret_bytes(secret: str) -> list[bytes]:
    """What must not appear: the secret, and its random body without the public prefix."""
    return [secret.encode(), secret[4:].encode(), secret[4:14].encode()]


@pytest.mark.parametrize(
    ("label", "secret_name", "attribute", "value"),
    CASES,
    ids=[f"{label}-{name}" for label, name, _, _ in CASES],
)
def test_a_secret_in_any_field_reaches_no_endpoint(
    server: ThreadedServer, label: str, secret_name: str, attribute: str, value: str
) -> None:
    thread = f"f{CASES.index((label, secret_name, attribute, value))}"
    publish(server, thread, scenario(**{attribute: value}))
    for endpoint, read in ENDPOINTS.items():
        body = read(server.url, thread)
        assert END.encode() in body, f"{endpoint}: the thread did not come back whole"
        for leaked in secret_bytes(SECRETS[secret_name]):
            assert leaked not in body, f"{label} leaks on {endpoint}: {_around(body, leaked)}"


def _around(body: bytes, needle: bytes) -> bytes:
    at = body.find(needle)
    return body[max(0, at - 80) : at + 80]


# --- routing: a call whose id held a secret still pairs everywhere ----------------------


def test_a_call_with_a_secret_in_its_id_keeps_one_opaque_id_everywhere(
    server: ThreadedServer,
) -> None:
    publish(server, "route", scenario(call_id=f"call-{GITHUB}", running_id=f"running-{AWS}"))
    base = f"{server.url}/api/threads/route"
    events = httpx.get(f"{base}/events").json()["events"]
    ids = [e["observation"].get("toolCallId") for e in events]
    call_id, running_id = ids[1], ids[5]
    assert call_id != f"call-{GITHUB}" and ids[2] == ids[3] == call_id  # call, partial, result
    assert running_id != f"running-{AWS}" and ids[6] == running_id
    assert len({call_id, running_id, ids[4]}) == 3  # distinct calls stay distinct

    live = read_stream(f"{base}/follow?mode=live", _complete_event_after_end)
    frames = [json.loads(line[5:]) for line in live.splitlines() if line.startswith(b"data:")]
    output = [f for f in frames if f["kind"] == "tool-output" and f["toolName"] == "deploy"]
    assert [f["toolCallId"] for f in output] == [call_id, call_id]  # the partial, the completion
    assert output[-1]["complete"] is True
    assert [f["toolCallId"] for f in frames if f["kind"] == "tool-call"] == [call_id, running_id]

    agui = httpx.get(f"{base}/agui?format=json").json()
    starts = {e["toolCallId"] for e in agui if e["type"] == "TOOL_CALL_START"}
    results = {e["toolCallId"]: e["content"] for e in agui if e["type"] == "TOOL_CALL_RESULT"}
    assert {call_id, running_id} <= starts
    assert results[call_id] == "pushed ok"  # the result answers its own call, not an abort
    assert results[running_id].startswith("aborted")

    fragment = httpx.get(f"{base}/calls/{quote(call_id, safe='')}/html")
    assert fragment.status_code == 200 and "pushed ok" in fragment.text
    assert GITHUB not in fragment.text and GITHUB[4:] not in fragment.text
    raw = httpx.get(f"{base}/calls/{quote(f'call-{GITHUB}', safe='')}/html")
    assert raw.status_code == 404  # only the id the browser was given routes


def test_the_live_status_line_never_spells_a_secret_tool_name(server: ThreadedServer) -> None:
    """The page's status line is built from the frames' ``toolName``: redacted at the source."""
    publish(server, "status", scenario(running_name=f"deploy --token {GITHUB}"))
    live = read_stream(
        f"{server.url}/api/threads/status/follow?mode=live", _complete_event_after_end
    )
    names = [
        json.loads(line[5:]).get("toolName")
        for line in live.splitlines()
        if line.startswith(b"data:")
    ]
    assert "deploy --token [redacted: github-token]" in names
    assert not any(re.search(r"ghp_[A-Za-z0-9]", name or "") for name in names)


def test_the_page_status_line_never_spells_a_pending_call_s_secret_name(
    server: ThreadedServer,
) -> None:
    """The page is served with a status line naming the calls still running."""
    call = {"kind": "tool-call", "toolCallId": "c0", "toolName": f"deploy --token {GITHUB}"}
    publish(server, "pending", [{**call, "args": {}}])
    page = httpx.get(f"{server.url}/threads/pending").text
    assert "running deploy --token [redacted: github-token]" in page
    assert GITHUB[4:] not in page
