"""Following a thread over SSE on a real socket (uvicorn in a thread), both backends."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from log_fixtures import LogOpener
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames
from sse_starlette import ServerSentEvent
from toolview_servers import NDJSON, run_in_thread

from toolview.contract import Message, decode_observation
from toolview.safety import redact, redact_json
from toolview.server.live.sse import encode_event
from toolview.server.state import SharedReads
from toolview.wire.delta import Append, Reset, Slide, apply
from toolview.wire.feed import LogItem
from toolview.wire.follow import Follower, Frame, Redactor

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
    response = httpx.post(
        f"{server.url}/api/threads/{thread}/observations", content=body, headers=NDJSON
    )
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
    host = f"127.0.0.1:{live_server.port}"
    stalled.sendall(f"GET /api/threads/t/follow HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
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


@given(seq=st.integers(min_value=0, max_value=2**62), text=st.text())
def test_an_event_is_encoded_byte_for_byte_as_sse_starlette_does(seq: int, text: str) -> None:
    frame = Frame(seq, text.encode(), "message")
    assert encode_event(frame) == ServerSentEvent(data=text, id=str(seq)).encode()


SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
PING = re.compile(rb": ping - [^\r\n]*\r\n\r\n")


def raw_events(url: str, expected: bytes, into: list[bytes]) -> None:
    """The stream's bytes, keep-alive comments removed, once they are as long as ``expected``."""
    body, deadline = b"", time.monotonic() + 60
    with httpx.stream("GET", url, timeout=60) as response:
        for chunk in response.iter_bytes():
            body += chunk
            if len(PING.sub(b"", body)) >= len(expected) or time.monotonic() > deadline:
                break
    into.append(PING.sub(b"", body))


def test_every_follower_gets_the_bytes_an_unshared_follower_computes(
    live_server: ThreadedServer,
) -> None:
    create(live_server)
    log = [
        {**CALL, "args": {"token": SECRET}},
        result(f"token={SECRET}\n"),
        {
            **result(f"token={SECRET}\ndone\n", complete=True),
            "descriptor": {"kind": "shell", "props": {"password": SECRET}},
        },
        {"kind": "message", "role": "assistant", "text": f"it printed {SECRET}"},
    ] * 5
    unshared = Follower("elide", Redactor(text=redact, json=redact_json, budget=0))
    expected = b"".join(
        encode_event(frame)
        for seq, raw in enumerate(log, start=1)
        for frame in unshared.push(LogItem(seq, decode_observation(json.dumps(raw))), 0.0)
    )
    streams: list[bytes] = []
    url = f"{live_server.url}/api/threads/t/follow"
    readers = [threading.Thread(target=raw_events, args=(url, expected, streams)) for _ in range(4)]
    for reader in readers:
        reader.start()
    for n in range(0, len(log), 4):
        post(live_server, *log[n : n + 4])
    for reader in readers:
        reader.join(timeout=120)
    assert streams == [expected] * 4
    assert SECRET.encode() not in expected


def test_identical_reads_in_flight_are_made_once(
    open_log: LogOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        log = open_log()
        await log.create_thread("t")
        await log.append("t", [Message("assistant", f"m{n}") for n in range(10)])
        reads: list[int] = []
        real_read = log.read

        async def counted(
            thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
        ) -> list[tuple[int, bytes]]:
            reads.append(after)
            return await real_read(thread_id, after, upto=upto, limit=limit)

        monkeypatch.setattr(log, "read", counted)
        shared = SharedReads(log)
        results = await asyncio.gather(*(shared.read("t", 2, limit=5) for _ in range(50)))
        assert reads == [2] and results == [await real_read("t", 2, limit=5)] * 50
        await log.append("t", [Message("assistant", "later")])
        assert [seq for seq, _ in await shared.read("t", 9)] == [10, 11]  # nothing kept
        assert reads == [2, 9]
        await log.aclose()

    run_in_thread(lambda: asyncio.run(scenario()))  # no loop of Playwright's in the way


def test_a_cancelled_reader_does_not_cancel_the_read_it_shares(open_log: LogOpener) -> None:
    async def scenario() -> None:
        log = open_log()
        await log.create_thread("t")
        await log.append("t", [Message("assistant", "m")])
        shared = SharedReads(log)
        first = asyncio.create_task(shared.read("t", 0))
        second = asyncio.create_task(shared.read("t", 0))
        await asyncio.sleep(0)  # both joined the one read
        first.cancel()
        assert [seq for seq, _ in await second] == [1]
        assert first.cancelled()
        await log.aclose()

    run_in_thread(lambda: asyncio.run(scenario()))  # no loop of Playwright's in the way
