"""Following a thread over SSE on a real socket (uvicorn in a thread), both backends."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import httpx
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames

from toolview.wire.delta import Append, Reset, Slide, apply

CALL = {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {}}


def result(text: str, complete: bool = False) -> dict[str, object]:
    return {
        "kind": "tool-result",
        "toolCallId": "c1",
        "toolName": "shell",
        "text": text,
        "complete": complete,
        "isError": False,
    }


def post(server: ThreadedServer, *observations: object, thread: str = "t") -> list[int]:
    body = "".join(json.dumps(o) + "\n" for o in observations)
    response = httpx.post(f"{server.url}/api/threads/{thread}/observations", content=body)
    response.raise_for_status()
    seqs: list[int] = response.json()["seqs"]
    return seqs


def create(server: ThreadedServer, thread: str = "t") -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": thread}).raise_for_status()


def shown(frames: list[SSEFrame]) -> str | None:
    """What a live client displays for call c1 after these frames."""
    text: str | None = None
    for frame in frames:
        data = frame.data
        if data["kind"] == "tool-output":
            op = data["op"]
            delta = (
                Append(data["text"])
                if op == "append"
                else Slide(data["drop"], data["text"])
                if op == "slide"
                else Reset(data["text"])
            )
            text = apply(text, delta)
        elif data["kind"] == "tool-result":
            text = data["text"]
    return text


def test_elide_skips_partial_seqs_and_resumes_exactly_after_an_id(
    live_server: ThreadedServer,
) -> None:
    create(live_server)
    post(live_server, CALL, result("a"), result("ab"), result("abc", complete=True), CALL)
    url = f"{live_server.url}/api/threads/t/follow"
    frames = read_frames(url, until=lambda f: len(f) == 3)
    assert [f.id for f in frames] == ["1", "4", "5"]
    assert frames[1].data["text"] == "abc"
    resumed = read_frames(url, headers={"Last-Event-ID": "4"}, until=lambda f: len(f) == 1)
    assert [f.id for f in resumed] == ["5"]
    by_query = read_frames(f"{url}?lastEventId=1", until=lambda f: len(f) == 2)
    assert [f.id for f in by_query] == ["4", "5"]


def test_live_output_grows_by_deltas_and_completes(live_server: ThreadedServer) -> None:
    create(live_server)
    post(live_server, CALL)
    texts = ["".join(f"line {n}\n" for n in range(k)) for k in range(1, 40)]
    collected: list[SSEFrame] = []

    def follow() -> None:
        url = f"{live_server.url}/api/threads/t/follow?mode=live"
        collected.extend(
            read_frames(url, until=lambda f: bool(f) and f[-1].data.get("complete") is True)
        )

    follower = threading.Thread(target=follow)
    follower.start()
    for text in texts:
        post(live_server, result(text))
    post(live_server, result(texts[-1] + "end\n", complete=True))
    follower.join(timeout=120)
    assert shown(collected) == texts[-1] + "end\n"
    last = collected[-1].data
    assert last["complete"] is True and last["text"] != texts[-1] + "end\n"  # a delta, not the text
    output = [f for f in collected if f.data["kind"] == "tool-output"]
    assert sum(len(f.data["text"]) for f in output) < 2 * len(texts[-1] + "end\n")
    ids = [int(f.id or 0) for f in collected]
    assert ids == sorted(ids)


def test_a_follower_joining_mid_call_gets_a_reset_first(live_server: ThreadedServer) -> None:
    create(live_server)
    post(live_server, CALL, result("one\n"), result("one\ntwo\n"))
    url = f"{live_server.url}/api/threads/t/follow?mode=live"
    frames = read_frames(url, headers={"Last-Event-ID": "2"}, until=lambda f: len(f) == 1)
    assert frames[0].data["op"] == "reset" and frames[0].data["text"] == "one\ntwo\n"
    joined_at_end = read_frames(url, headers={"Last-Event-ID": "3"}, until=lambda f: len(f) == 1)
    assert joined_at_end[0].data["op"] == "reset" and joined_at_end[0].data["text"] == "one\ntwo\n"


def test_keep_alive_comments_flow_while_idle(live_server: ThreadedServer) -> None:
    create(live_server)
    comments: list[str] = []
    url = f"{live_server.url}/api/threads/t/follow"
    read_frames(url, comments=comments, until=lambda _: len(comments) >= 1)
    assert comments[0].startswith(":")


def test_the_events_endpoint_counts_only_frames_that_crossed(live_server: ThreadedServer) -> None:
    create(live_server)
    post(live_server, CALL, result("a"), result("ab"), result("abc", complete=True))
    read_frames(f"{live_server.url}/api/threads/t/follow", until=lambda f: len(f) == 2)
    body = events_after_frames(live_server, 2)
    assert body["emitted"] == 4
    assert body["sent"]["byMode"] == {"elide": 2}
    tail = body["sent"]["tail"]
    assert [frame["seq"] for frame in tail][:1] == [1]
    assert all(frame["seq"] not in (2, 3) for frame in tail)  # elided partials never crossed


def events_after_frames(server: ThreadedServer, frames: int) -> dict[str, Any]:
    """The events body once ``frames`` frames are counted (counted just after each write)."""
    deadline = time.monotonic() + 60
    while True:
        body: dict[str, Any] = httpx.get(f"{server.url}/api/threads/t/events").json()
        if body["sent"]["frames"] >= frames or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_a_client_that_stops_reading_blocks_neither_producer_nor_others(
    live_server: ThreadedServer,
) -> None:
    create(live_server)
    stalled = socket.create_connection(("127.0.0.1", live_server.port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(b"GET /api/threads/t/follow HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        big = "x" * 50_000
        for n in range(40):  # ~2 MB the stalled client never reads
            post(
                live_server,
                {**CALL, "toolCallId": f"c{n}"},
                {**result(big, True), "toolCallId": f"c{n}"},
            )
        frames = read_frames(
            f"{live_server.url}/api/threads/t/follow", until=lambda f: len(f) == 80
        )
        assert [f.id for f in frames] == [str(n) for n in range(1, 81)]
    finally:
        stalled.close()
