"""The route helpers every room reads (``server.params``), apart from the routes."""

from __future__ import annotations

import re

import pytest
from starlette.requests import Request
from starlette.testclient import TestClient

from toolview.server.params import THREAD_ID, query_int


def request_with(query: str) -> Request:
    """A real Starlette request for ``/x?<query>``, as a route receives it."""
    scope = {"type": "http", "method": "GET", "path": "/x", "headers": []}
    return Request({**scope, "query_string": query.encode()})


def test_a_missing_query_is_the_default_and_the_bounds_are_inclusive() -> None:
    assert query_int(request_with(""), "limit", 7, 1, 10) == 7
    assert query_int(request_with("limit=1"), "limit", 7, 1, 10) == 1
    assert query_int(request_with("limit=10"), "limit", 7, 1, 10) == 10


@pytest.mark.parametrize("raw", ["0", "11", "-1", "3x", "1.0", "", "x", "1" * 20])
def test_a_query_outside_the_bounds_or_not_a_whole_number_is_refused(raw: str) -> None:
    refused = f"limit must be a whole number from 1 to 10, not {raw!r}"
    with pytest.raises(ValueError, match=re.escape(refused)):
        query_int(request_with(f"limit={raw}"), "limit", 7, 1, 10)


@pytest.mark.parametrize("thread_id", [".", "..", "", "a/b", "a b", "x" * 65])
def test_a_thread_id_a_url_would_normalise_or_that_is_too_long_is_not_one(thread_id: str) -> None:
    assert THREAD_ID.fullmatch(thread_id) is None


def test_a_thread_id_is_up_to_64_letters_digits_dots_dashes_and_underscores() -> None:
    assert THREAD_ID.fullmatch("a.b_c-D9" + "x" * 56)


def test_a_thread_that_is_not_there_is_a_404_on_every_room_s_routes(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "here"})
    for path in ("/api/threads/{}/events", "/api/threads/{}/window", "/api/threads/{}/search?q=a"):
        assert client.get(path.format("here")).status_code == 200, path
        missing = client.get(path.format("gone"))
        assert (missing.status_code, missing.json()["error"]) == (404, "no thread 'gone'"), path
        odd = client.get(path.format("a%20b"))
        assert odd.status_code == 404 and "thread id is 1-64" in odd.json()["error"], path
