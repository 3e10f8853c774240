"""The live AG-UI stream (``/agui?follow=1``) on a real socket, both log backends.

Streams are read until a known last event and then dropped, as a client that
goes away would; what was read is judged by the official AG-UI client
(``tests/node/agui_verify.mjs``) and compared with the translator's own output.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames
from starlette.testclient import TestClient
from test_agui_conformance import REDACTOR, THREAD, THREADS, assert_conforms
from toolview_servers import NDJSON

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
    encode_observation,
)
from toolview.server.live.agui_follow import AguiCursor, Position, parse_position
from toolview.wire.log.sqlite import SQLiteLog

Event = dict[str, Any]


def post(server: ThreadedServer, thread: str, observations: Sequence[Observation]) -> None:
    body = b"\n".join(encode_observation(o) for o in observations)
    url = f"{server.url}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers=NDJSON, timeout=60).raise_for_status()


def create(server: ThreadedServer, thread: str, observations: Sequence[Observation] = ()) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": thread}).raise_for_status()
    if observations:
        post(server, thread, observations)


def expected(thread: str, observations: Sequence[Observation]) -> list[tuple[str, Event]]:
    """What an uninterrupted follower must receive: the translator's events, ids ``seq.n``."""
    cursor = AguiCursor(thread, REDACTOR, Position(0))
    pairs = [pair for seq, o in enumerate(observations, 1) for pair in cursor.push(seq, o)]
    return [(i, e.model_dump(mode="json", by_alias=True, exclude_none=True)) for i, e in pairs]


def follow(
    server: ThreadedServer, thread: str, count: int, *, after: str | None = None
) -> list[SSEFrame]:
    """The first ``count`` frames of the live stream (after the id ``after``)."""
    url = f"{server.url}/api/threads/{thread}/agui?follow=1"
    headers = {} if after is None else {"Last-Event-ID": after}
    return read_frames(url, headers=headers, until=lambda frames: len(frames) >= count)


def pairs(frames: Sequence[SSEFrame]) -> list[tuple[str | None, Event]]:
    return [(frame.id, frame.data) for frame in frames]


RICH: list[Observation] = [
    Message("user", "before any run"),  # an implicit run
    RunStarted("r1"),
    ToolCall("c1", "shell", {"command": "make"}),
    ToolResult("c1", "shell", "build", complete=False, is_error=False),
    ToolResult("c1", "shell", "built", complete=True, is_error=False),
    ToolCall("c2", "shell", {}),
    RunEnded("r1", "aborted"),  # c2 aborted
    RunStarted("r2"),
    ToolCall("c1", "read", {"path": "again"}),  # a reused id: c1~2
    ToolResult("c1", "read", "y", complete=True, is_error=False),
    Message("assistant", "done"),
    ToolCall("c3", "shell", {}),  # still running: the stream ends inside r2
]


def test_live_events_arrive_as_observations_are_posted(live_server: ThreadedServer) -> None:
    create(live_server, "t", [RunStarted("r1")])
    later: list[Observation] = [
        ToolCall("c1", "shell", {"command": "ls"}),
        ToolResult("c1", "shell", "a", complete=False, is_error=False),
        ToolResult("c1", "shell", "a\nb\n", complete=True, is_error=False),
        Message("assistant", "two files"),
    ]
    want = expected("t", [RunStarted("r1"), *later])
    frames: list[SSEFrame] = []
    started = threading.Event()

    def until(seen: list[SSEFrame]) -> bool:
        started.set()  # the run's start came: the follower is live
        return len(seen) >= len(want)

    url = f"{live_server.url}/api/threads/t/agui?follow=1"
    reader = threading.Thread(target=lambda: frames.extend(read_frames(url, until=until)))
    reader.start()
    assert started.wait(timeout=60)
    for observation in later:  # one at a time, each after the follower is live
        post(live_server, "t", [observation])
    reader.join(timeout=120)
    assert pairs(frames) == want
    assert [data["type"] for _, data in want][-4:] == [
        "TOOL_CALL_RESULT",  # one result for the partial and the completed one
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
    ]
    assert [frame.id for frame in frames][:3] == ["1.1", "2.1", "2.2"]


def test_no_implicit_finish_while_following(live_server: ThreadedServer) -> None:
    create(live_server, "t", [Message("user", "hi")])  # an implicit run, left open
    comments: list[str] = []
    url = f"{live_server.url}/api/threads/t/agui?follow=1"
    frames = read_frames(url, comments=comments, until=lambda f: len(f) >= 4 and bool(comments))
    assert [f.data["type"] for f in frames] == [
        "RUN_STARTED",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
    ]  # a keep-alive came, and no RUN_FINISHED before it
    snapshot = httpx.get(f"{live_server.url}/api/threads/t/agui?format=json").json()
    assert snapshot[-1]["type"] == "RUN_FINISHED"  # the snapshot still finishes it


def test_followed_streams_pass_the_official_client(live_server: ThreadedServer) -> None:
    streams: dict[str, Sequence[Event] | str] = {}
    names = ["completed", "several-runs", "still-running", "hostile", "refused", "unicode"]
    for name in names:
        create(live_server, name, THREADS[name])
        want = expected(name, THREADS[name])
        frames = follow(live_server, name, len(want))
        assert pairs(frames) == want
        streams[name] = [frame.data for frame in frames]
    create(live_server, "rich", RICH)
    streams["rich"] = [f.data for f in follow(live_server, "rich", len(expected("rich", RICH)))]
    report = assert_conforms(streams)
    assert report["streams"]["still-running"]["openRun"] is True
    assert report["streams"]["rich"]["openRun"] is True
    assert "AKIAIOSFODNN7EXAMPLE" not in json.dumps(streams["hostile"])  # redacted


def test_a_resumed_stream_continues_exactly_where_it_was_cut(live_server: ThreadedServer) -> None:
    create(live_server, "t", RICH)
    whole = follow(live_server, "t", len(expected("t", RICH)))
    assert pairs(whole) == expected("t", RICH)
    for cut in range(len(whole)):  # every cut point, the start included
        last = whole[cut - 1].id if cut else "0"
        rest = follow(live_server, "t", len(whole) - cut, after=last)
        assert pairs(whole[:cut] + rest) == pairs(whole), f"cut after {last}"
    by_query = read_frames(
        f"{live_server.url}/api/threads/t/agui?follow=1&lastEventId=2",  # a bare seq
        until=lambda f: len(f) >= 1,
    )
    assert by_query[0].id == "3.1"


@settings(max_examples=20, deadline=None)
@given(THREAD, st.integers(min_value=0))
def test_resume_at_any_point_equals_the_uninterrupted_stream(
    thread: list[Observation], cut_at: int
) -> None:
    whole = expected("t", thread)
    cut = cut_at % (len(whole) + 1)
    last = parse_position(whole[cut - 1][0] if cut else "0")
    cursor = AguiCursor("t", REDACTOR, last)
    rest = [pair for seq, o in enumerate(thread, 1) for pair in cursor.push(seq, o)]
    dumped = [(i, e.model_dump(mode="json", by_alias=True, exclude_none=True)) for i, e in rest]
    assert whole[:cut] + dumped == whole


def test_follow_streams_share_the_per_client_limit(open_log: Any) -> None:
    with ThreadedServer(open_log, follow_limit=2, keepalive=1.0) as server:
        create(server, "t", [Message("user", "hi")])
        url = f"{server.url}/api/threads/t"
        with httpx.Client(timeout=30) as client:
            first = client.send(client.build_request("GET", f"{url}/follow"), stream=True)
            second = client.send(client.build_request("GET", f"{url}/agui?follow=1"), stream=True)
            third = client.get(f"{url}/agui?follow=1")
            assert (first.status_code, second.status_code, third.status_code) == (200, 200, 429)
            assert "too many follow streams" in third.json()["error"]
            assert third.headers["retry-after"]
            second.close()
            again = reopen(client, f"{url}/agui?follow=1")  # the slot comes back
            assert again.status_code == 200
            again.close()
            first.close()


def reopen(client: httpx.Client, url: str) -> httpx.Response:
    """The stream, once the server has seen a closed one go (a generous minute)."""
    deadline = time.monotonic() + 60
    while True:
        response = client.send(client.build_request("GET", url), stream=True)
        if response.status_code == 200 or time.monotonic() > deadline:
            return response
        response.close()
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("query", "headers", "status", "says"),
    [
        ("follow=1&format=json", {}, 400, "SSE only"),
        ("follow=yes", {}, 400, "follow must be"),
        ("follow=1", {"last-event-id": "3.x"}, 400, "Last-Event-ID"),
        ("follow=1&lastEventId=-1", {}, 400, "Last-Event-ID"),
    ],
)
def test_bad_parameters_are_a_clear_400(
    client: TestClient, query: str, headers: dict[str, str], status: int, says: str
) -> None:
    client.post("/api/threads", json={"id": "t"})
    response = client.get(f"/api/threads/t/agui?{query}", headers=headers)
    assert response.status_code == status
    assert says in response.json()["error"]


def test_an_unknown_thread_is_404(client: TestClient) -> None:
    response = client.get("/api/threads/nope/agui?follow=1")
    assert response.status_code == 404 and "no thread" in response.json()["error"]


def test_a_stalled_reader_is_dropped_without_blocking_others(tmp_path: Any) -> None:
    options = {"keepalive": 1.0, "send_timeout": 2.0}
    with ThreadedServer(lambda: SQLiteLog(tmp_path / "log.db"), **options) as server:
        create(server, "t", [RunStarted("r1")])
        follows = server.app.state.toolview.follows
        stalled = socket.create_connection(("127.0.0.1", server.port))
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        request = (
            f"GET /api/threads/t/agui?follow=1 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
        )
        stalled.sendall(request.encode())
        try:
            big = "x" * 200_000
            for n in range(40):  # ~8 MB the stalled client never reads
                call = ToolCall(f"c{n}", "shell", {})
                post(server, "t", [call, ToolResult(f"c{n}", "shell", big, True, False)])
            frames = follow(server, "t", 1 + 40 * 4)  # the producer and a reader went on
            assert frames[-1].data["type"] == "TOOL_CALL_RESULT"
            assert frames[-1].data["content"] == big
            deadline = time.monotonic() + 120
            while follows and time.monotonic() < deadline:  # the stalled one is dropped
                time.sleep(0.1)
            assert not follows
        finally:
            stalled.close()
