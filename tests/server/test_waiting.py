"""``GET /api/waiting``: what waits across threads, read under the same rules as any read.

Across both logs (``open_log``): each waiting call comes with its thread,
redacted; a decided call leaves the list; the token guards it like every read,
and another origin is refused; ``threads`` is bounded (a request never folds
the whole log) and says how much was read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.contract import ToolWaiting, encode_observation
from toolview.server.app import create_app
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]
BEARER = {"authorization": "Bearer s3cret"}
SECRET = "ghp_" + "a" * 36


def _ask(client: TestClient, thread: str, call: str) -> None:
    assert client.post("/api/threads", json={"id": thread}, headers=BEARER).status_code == 201
    ask = ToolWaiting(tool_call_id=call, tool_name="Bash", args={"command": f"echo {SECRET}"})
    stored = client.post(
        f"/api/threads/{thread}/observations", content=encode_observation(ask), headers=BEARER
    )
    assert stored.status_code == 200, stored.text


@pytest.fixture
def guarded(open_log: LogOpener) -> Iterator[TestClient]:
    with local_client(create_app(open_log, token="s3cret")) as client:
        _ask(client, "one", "c1")
        _ask(client, "quiet", "c0")
        decided = client.post(
            "/api/threads/quiet/calls/c0/decision", json={"decision": "allow"}, headers=BEARER
        )
        assert decided.status_code == 201
        _ask(client, "two", "c2")
        yield client


def test_every_threads_waiting_calls_with_their_thread_redacted(guarded: TestClient) -> None:
    body = guarded.get("/api/waiting", headers=BEARER).json()
    assert sorted((w["thread"], w["toolCallId"]) for w in body["waiting"]) == [
        ("one", "c1"),
        ("two", "c2"),
    ]
    assert SECRET not in str(body) and (body["threadsRead"], body["threads"]) == (3, 3)


def test_no_token_or_another_origin_reads_nothing(guarded: TestClient) -> None:
    assert guarded.get("/api/waiting").status_code == 401
    evil = {**BEARER, "origin": "https://evil.example", "sec-fetch-site": "cross-site"}
    assert guarded.get("/api/waiting", headers=evil).status_code == 403


@pytest.mark.parametrize("threads", ["0", "33", "-1", "1e3", "9" * 30])
def test_the_thread_bound_is_enforced(guarded: TestClient, threads: str) -> None:
    assert guarded.get(f"/api/waiting?threads={threads}", headers=BEARER).status_code == 400


def test_threads_reads_the_newest_only_and_says_so(guarded: TestClient) -> None:
    body = guarded.get("/api/waiting?threads=1", headers=BEARER).json()
    assert [(w["thread"], w["toolCallId"]) for w in body["waiting"]] == [("two", "c2")]
    assert (body["threadsRead"], body["threads"]) == (1, 3)
