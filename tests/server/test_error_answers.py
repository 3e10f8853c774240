"""Every error a route answers, pinned byte for byte: status, header list and body.

Why: the routes raise their errors and one handler renders them
(``server.errors``); what a client gets must not depend on that plumbing. Each
answer is spelled out here in full, not built with the server's own helpers,
so a change to any header, its order or the body shows up.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.server.app import create_app
from toolview.wire.log import UnknownThread
from toolview.wire.log.sqlite import SQLiteLog

SECURITY = [
    (
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
        "frame-src 'self'",
    ),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
]
CALL = {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {}}
RULE = "a thread id is 1-64 of A-Z a-z 0-9 . _ -, and not '.' or '..'"
BAD_ID = "no such thread (" + RULE + ")"


def json_error(status: int, message: str, *extra: tuple[str, str]) -> tuple[Any, ...]:
    """What the client must get: ``{"error": message}``, compact, UTF-8."""
    body = json.dumps({"error": message}, ensure_ascii=False, separators=(",", ":")).encode()
    head = [*extra, ("content-length", str(len(body))), ("content-type", "application/json")]
    return status, [*head, *SECURITY], body


CASES: list[tuple[str, str, dict[str, Any], tuple[Any, ...]]] = [
    ("GET", "/api/threads/nope/events", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/api/threads/a~b/events", {}, json_error(404, BAD_ID)),
    (
        "POST",
        "/api/threads/nope/observations",
        {"content": "[]"},
        json_error(404, "no thread 'nope'"),
    ),
    ("GET", "/api/threads/nope/agui", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/api/threads/nope/follow", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/api/threads/nope/html", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/api/threads/nope/call?id=c1", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/api/threads/nope/calls/c1/html", {}, json_error(404, "no thread 'nope'")),
    ("GET", "/threads/nope/summary", {}, json_error(404, "no thread 'nope'")),
    (
        "POST",
        "/api/threads",
        {"content": "x" * 4097},
        json_error(413, "body of 4097 bytes is over the limit of 4096"),
    ),
    (
        "POST",
        "/api/threads",
        {"content": "[1]"},
        json_error(
            400,
            'body must be a JSON object like {"id": "name"}: Expected `object`, got `array`',
        ),
    ),
    ("POST", "/api/threads", {"json": {"id": "é"}}, json_error(400, f"$.id: {RULE}, not 'é'")),
    (
        "POST",
        "/api/threads/t/observations",
        {"content": "{"},
        json_error(400, "line 1: $: malformed JSON: Input data was truncated"),
    ),
    (
        "POST",
        "/api/threads/t/observations",
        {"json": [CALL, CALL], "headers": {"idempotency-key": "k"}},
        json_error(
            422,
            "Idempotency-Key 'k' was already used on this thread for a different batch",
        ),
    ),
    (
        "GET",
        "/api/threads/t/events?after=x",
        {},
        json_error(400, "after must be a whole number from 0 to 4611686018427387904, not 'x'"),
    ),
    (
        "GET",
        "/api/threads/t/events?limit=0",
        {},
        json_error(400, "limit must be a whole number from 1 to 10000, not '0'"),
    ),
    (
        "GET",
        "/api/threads/t/agui?format=xml",
        {},
        json_error(400, "format must be 'sse' or 'json', not 'xml'"),
    ),
    (
        "GET",
        "/api/threads/t/agui?follow=2",
        {},
        json_error(400, "follow must be '0' or '1', not '2'"),
    ),
    (
        "GET",
        "/api/threads/t/agui?follow=1&format=json",
        {},
        json_error(400, "follow=1 streams over SSE only: format must be 'sse', not 'json'"),
    ),
    (
        "GET",
        "/api/threads/t/agui?follow=1",
        {"headers": {"last-event-id": "x"}},
        json_error(
            400,
            "Last-Event-ID must be an AG-UI event id (<seq>.<n>) or a seq "
            "(0 to 9223372036854775807), not 'x'",
        ),
    ),
    (
        "GET",
        "/api/threads/t/follow?mode=fast",
        {},
        json_error(400, "mode must be 'elide' or 'live', not 'fast'"),
    ),
    (
        "GET",
        "/api/threads/t/follow",
        {"headers": {"last-event-id": "-1"}},
        json_error(400, "Last-Event-ID must be a seq (0 to 9223372036854775807), not '-1'"),
    ),
    (
        "GET",
        "/api/threads/t/call",
        {},
        json_error(400, "id (the call's toolCallId) is required: /api/threads/{id}/call?id=…"),
    ),
    ("GET", "/api/threads/t/call?id=zz", {}, json_error(404, "no such call in this thread")),
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a SQLite log with thread ``t``, whose key ``k`` names one batch."""
    with local_client(create_app(lambda: SQLiteLog(tmp_path / "log.db"))) as test_client:
        test_client.post("/api/threads", json={"id": "t"}).raise_for_status()
        headers = {"idempotency-key": "k"}
        test_client.post("/api/threads/t/observations", json=[CALL], headers=headers)
        yield test_client


def answer(client: TestClient, method: str, url: str, **options: Any) -> tuple[Any, ...]:
    response = client.request(method, url, **options)
    headers = [(k.decode(), v.decode()) for k, v in response.headers.raw]
    return response.status_code, headers, response.content


@pytest.mark.parametrize(("method", "url", "options", "expected"), CASES)
def test_each_error_answer_is_exact(
    client: TestClient, method: str, url: str, options: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    assert answer(client, method, url, **options) == expected


def test_an_impossible_thread_page_is_a_page_and_a_missing_call_by_path_is_empty(
    client: TestClient,
) -> None:
    # a valid id not there yet is a page waiting for it (test_thread_search); an id no
    # thread can have is a page saying so
    page = answer(client, "GET", "/threads/no%20such")
    html = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>not found · toolview</title>\n"
        '<link rel="stylesheet" href="/static/fragments.css">\n'
        '<link rel="stylesheet" href="/static/page.css">\n'
        "</head>\n<body>\n<main><h1>No such thread</h1></main>\n</body>\n</html>\n"
    ).encode()
    html_type = ("content-type", "text/html; charset=utf-8")
    assert page == (404, [("content-length", str(len(html))), html_type, *SECURITY], html)
    empty = answer(client, "GET", "/api/threads/t/calls/zz/html")
    assert empty == (404, [("content-length", "0"), html_type, *SECURITY], b"")


def test_the_follow_limits_answer_429_with_retry_after(tmp_path: Path) -> None:
    def app(**limits: Any) -> Any:
        return create_app(lambda: SQLiteLog(tmp_path / "log.db"), **limits)

    with local_client(app(follow_limit=0)) as client:
        client.post("/api/threads", json={"id": "t"}).raise_for_status()
        expected = json_error(
            429, "too many follow streams from testclient (at most 0)", ("retry-after", "5")
        )
        assert answer(client, "GET", "/api/threads/t/follow") == expected
        assert answer(client, "GET", "/api/threads/t/agui?follow=1") == expected
    with local_client(app(follow_total=0)) as client:
        expected = json_error(
            429, "the server holds its most follow streams (0)", ("retry-after", "5")
        )
        assert answer(client, "GET", "/api/threads/t/follow") == expected


def test_a_body_past_the_servers_budget_is_503_with_retry_after(tmp_path: Path) -> None:
    with local_client(create_app(lambda: SQLiteLog(tmp_path / "log.db"))) as client:
        client.post("/api/threads", json={"id": "t"}).raise_for_status()
        client.app.state.toolview.bodies.total = 0
        message = "the server is busy reading other requests' bodies (0 bytes at once): retry later"
        expected = json_error(503, message, ("retry-after", "1"))
        assert answer(client, "POST", "/api/threads/t/observations", content="[]") == expected


class VanishingLog(SQLiteLog):
    """A log whose threads exist when asked but are gone when appended to (a race)."""

    async def append(self, thread_id: str, observations: Any) -> list[int]:
        raise UnknownThread(thread_id)

    async def append_once(self, thread_id: str, observations: Any, key: str) -> Any:
        raise UnknownThread(thread_id)


def test_a_thread_gone_before_the_append_is_404(tmp_path: Path) -> None:
    with local_client(create_app(lambda: VanishingLog(tmp_path / "log.db"))) as client:
        client.post("/api/threads", json={"id": "t"}).raise_for_status()
        for headers in ({}, {"idempotency-key": "k"}):
            got = answer(
                client, "POST", "/api/threads/t/observations", json=[CALL], headers=headers
            )
            assert got == json_error(404, "no thread 't'")


class FailingReads(SQLiteLog):
    """A log whose reads fail (the backend went down) once ``broken`` is set."""

    broken = False

    async def read(self, *args: Any, **kwargs: Any) -> Any:
        if self.broken:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")
        return await super().read(*args, **kwargs)


@pytest.mark.parametrize(
    ("url", "first"),
    [
        ("/api/threads/t/follow", b'id: 1\r\ndata: {"kind":"tool-call"'),
        ("/api/threads/t/agui?follow=1", b'id: 1.1\r\ndata: {"type":"RUN_STARTED"'),
    ],
)
def test_a_log_failing_inside_a_stream_ends_it_with_no_error_body(
    tmp_path: Path, url: str, first: bytes
) -> None:
    """Once a stream has started, an error cannot become an answer: the stream just ends.

    The client keeps what it got and resumes with ``Last-Event-ID``.
    """
    app = create_app(lambda: FailingReads(tmp_path / "log.db"), keepalive=0.2)
    with local_client(app, raise_server_exceptions=False) as client:
        client.post("/api/threads", json={"id": "t"}).raise_for_status()
        client.post("/api/threads/t/observations", json=[CALL]).raise_for_status()
        with client.stream("GET", url) as response:
            body = b""
            chunks = response.iter_bytes()
            while first not in body:
                body += next(chunks)
            app.state.toolview.log.broken = True  # the backend goes down mid-stream
            body += b"".join(chunks)
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert body.startswith(first) and b"error" not in body
