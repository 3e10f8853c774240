"""Deciding a waiting call over HTTP: once, by whom the server saw, never from elsewhere.

Hostile on purpose: a decision without the token, with the reading cookie,
from another origin, as a form, claiming its own ``by``, replayed, or for a
call that no longer waits — each is refused and nothing reaches the log.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.contract import ToolCall, ToolResult, ToolWaiting, encode_observation
from toolview.server.app import create_app
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]
BEARER = {"authorization": "Bearer s3cret"}
DECIDE = "/api/threads/t/calls/c1/decision"
SECRET = "ghp_" + "a" * 36


def seed(client: TestClient, *, asked: bool = True, done: bool = False) -> None:
    """Thread ``t`` with call ``c1`` (waiting for a person unless told otherwise)."""
    assert client.post("/api/threads", json={"id": "t"}, headers=BEARER).status_code == 201
    observations: list[object] = [ToolCall("c1", "Bash", {"command": f"echo {SECRET}"})]
    if asked:
        observations.append(ToolWaiting(tool_call_id="c1", tool_name="Bash", question="Run?"))
    if done:
        observations.append(ToolResult("c1", "Bash", "ok", complete=True, is_error=False))
    body = b"\n".join(encode_observation(o) for o in observations)  # type: ignore[arg-type]
    response = client.post("/api/threads/t/observations", content=body, headers=BEARER)
    assert response.status_code == 200, response.text


def decisions_in_log(client: TestClient) -> list[dict[str, object]]:
    events = client.get("/api/threads/t/events", headers=BEARER).json()["events"]
    return [e["observation"] for e in events if e["observation"]["kind"] == "tool-decision"]


@pytest.fixture
def guarded(open_log: LogOpener) -> Iterator[TestClient]:
    with local_client(create_app(open_log, token="s3cret")) as client:
        seed(client)
        yield client


def test_a_decision_is_taken_once_with_a_receipt_and_the_call_stops_waiting(
    guarded: TestClient,
) -> None:
    waiting = guarded.get("/api/threads/t/waiting", headers=BEARER).json()["waiting"]
    assert [(w["toolCallId"], w["question"]) for w in waiting] == [("c1", "Run?")]
    assert SECRET not in str(waiting)  # the arguments shown are redacted
    response = guarded.post(DECIDE, json={"decision": "deny", "message": "no"}, headers=BEARER)
    assert response.status_code == 201, response.text
    receipt = response.json()["decision"]
    assert receipt["decision"] == "deny" and receipt["message"] == "no"
    assert receipt["by"] == "the server's token" and receipt["via"] and receipt["at"]
    assert guarded.get("/api/threads/t/waiting", headers=BEARER).json()["waiting"] == []
    again = guarded.post(DECIDE, json={"decision": "allow"}, headers=BEARER)
    assert again.status_code == 409
    assert [d["decision"] for d in decisions_in_log(guarded)] == ["deny"]


def test_a_retry_with_its_key_is_answered_and_another_key_is_refused(guarded: TestClient) -> None:
    keyed = {**BEARER, "idempotency-key": "k-1"}
    first = guarded.post(DECIDE, json={"decision": "allow"}, headers=keyed)
    assert first.status_code == 201
    retry = guarded.post(DECIDE, json={"decision": "allow"}, headers=keyed)
    assert retry.status_code == 200 and retry.headers["idempotent-replayed"] == "true"
    assert retry.json() == first.json()
    replayed = guarded.post(
        DECIDE, json={"decision": "deny"}, headers={**BEARER, "idempotency-key": "k-2"}
    )
    assert replayed.status_code == 409
    assert len(decisions_in_log(guarded)) == 1


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),  # no token
        ({"authorization": "Bearer nope"}, 401),  # a forged one
        ({**BEARER, "origin": "http://evil.example"}, 403),  # another origin
        ({**BEARER, "origin": "null"}, 403),  # a sandboxed frame
        ({**BEARER, "sec-fetch-site": "cross-site"}, 403),
        ({**BEARER, "content-type": "text/plain"}, 415),  # a form or no-cors fetch
    ],
)
def test_a_forged_or_cross_site_decision_is_refused_and_nothing_is_written(
    guarded: TestClient, headers: dict[str, str], status: int
) -> None:
    response = guarded.post(DECIDE, content=b'{"decision": "allow"}', headers=headers)
    assert response.status_code == status
    assert decisions_in_log(guarded) == []
    assert guarded.get("/api/threads/t/waiting", headers=BEARER).json()["waiting"] != []


def test_the_reading_cookie_cannot_decide(open_log: LogOpener) -> None:
    """Alone: it decides only with its page's token (tests/server/test_page_token.py)."""
    app = create_app(open_log, token="s3cret")
    with local_client(app) as client:
        seed(client)
        assert client.get(app.state.links.issue(), follow_redirects=False).status_code == 303
        assert client.get("/api/threads/t/waiting").status_code == 200  # it reads
        assert client.post(DECIDE, json={"decision": "allow"}).status_code == 403
        assert decisions_in_log(client) == []


@pytest.mark.parametrize(
    "body",
    [
        {"decision": "allow", "by": "the admin"},  # a client may not name who decided
        {"decision": "maybe"},
        {"decision": "answer", "answer": "not an object"},
    ],
)
def test_a_decision_body_that_claims_more_is_refused(guarded: TestClient, body: object) -> None:
    assert guarded.post(DECIDE, json=body, headers=BEARER).status_code == 400
    assert decisions_in_log(guarded) == []


@pytest.mark.parametrize(("asked", "done"), [(False, False), (True, True)])
def test_a_call_that_does_not_wait_gets_409_and_nothing_is_written(
    open_log: LogOpener, asked: bool, done: bool
) -> None:
    with local_client(create_app(open_log, token="s3cret")) as client:
        seed(client, asked=asked, done=done)
        response = client.post(DECIDE, json={"decision": "allow"}, headers=BEARER)
        assert response.status_code == 409
        unknown = "/api/threads/t/calls/nope/decision"
        assert client.post(unknown, json={"decision": "allow"}, headers=BEARER).status_code == 409
        assert decisions_in_log(client) == []


@pytest.mark.parametrize(
    ("listening", "allowed"),
    [("0.0.0.0", False), (None, False), ("::1", True), ("127.0.0.1", True)],
)
def test_a_tokenless_server_decides_only_when_it_listens_on_loopback_alone(
    open_log: LogOpener, listening: str | None, allowed: bool
) -> None:
    with local_client(create_app(open_log, listening=listening)) as client:
        seed(client)
        response = client.post(DECIDE, json={"decision": "allow"})
        assert response.status_code == (201 if allowed else 403)
        assert len(decisions_in_log(client)) == (1 if allowed else 0)
        if allowed:
            assert "(loopback, no token)" in response.json()["decision"]["by"]


def test_a_waiting_process_gets_the_decision_when_it_is_made(guarded: TestClient) -> None:
    assert guarded.get(f"{DECIDE}?timeout=0", headers=BEARER).status_code == 204
    answers: list[int] = []
    poll = threading.Thread(
        target=lambda: answers.append(
            guarded.get(f"{DECIDE}?timeout=120", headers=BEARER).status_code
        )
    )
    poll.start()
    assert guarded.post(DECIDE, json={"decision": "allow"}, headers=BEARER).status_code == 201
    poll.join()
    assert answers == [200]
    got = guarded.get(f"{DECIDE}?timeout=0", headers=BEARER).json()["decision"]
    assert got["decision"] == "allow"


def test_waiting_for_a_call_settled_without_a_decision_is_409(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, token="s3cret")) as client:
        seed(client, done=True)
        assert client.get(f"{DECIDE}?timeout=0", headers=BEARER).status_code == 409


def test_the_index_says_a_session_with_a_waiting_call_waits_for_input(guarded: TestClient) -> None:
    """The listing's status (``contract.session_facts``, from the ledger's ``needs_input``)."""

    def status() -> object:
        listed = guarded.get("/api/threads", headers=BEARER).json()["threads"]
        return next(t["status"] for t in listed if t["id"] == "t")

    assert status() == "waiting for input"
    assert guarded.post(DECIDE, json={"decision": "allow"}, headers=BEARER).status_code == 201
    assert status() == "running"


def test_a_call_id_with_a_slash_is_decided_as_written(open_log: LogOpener) -> None:
    """An id is one path segment, ``/`` sent as ``%2F``; the server decodes it before routing."""
    call = "a/../b?c"
    with local_client(create_app(open_log, token="s3cret")) as client:
        assert client.post("/api/threads", json={"id": "t"}, headers=BEARER).status_code == 201
        asked = [ToolCall(call, "Bash", {}), ToolWaiting(tool_call_id=call, tool_name="Bash")]
        body = b"\n".join(encode_observation(o) for o in asked)
        client.post("/api/threads/t/observations", content=body, headers=BEARER)
        path = f"/api/threads/t/calls/{quote(call, safe='')}/decision"
        assert client.post(path, json={"decision": "allow"}, headers=BEARER).status_code == 201
        assert [d["toolCallId"] for d in decisions_in_log(client)] == [call]
        assert client.get(f"{path}?timeout=0", headers=BEARER).status_code == 200
