"""The hub: each frame made once for all followers; one that falls behind leaves, loses nothing.

Both log backends. Waits are on the hub's own events (its position moving,
a member's next chunk), never on a clock.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
from ag_ui.core import BaseEvent
from log_fixtures import LogOpener
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames
from toolview_servers import NDJSON, run_async

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.server.live.follower import follow_chunks
from toolview.server.live.hub import Chunk, Hub, Member
from toolview.server.live.hubs import Hubs
from toolview.server.state import REDACTOR, SharedReads
from toolview.wire.agui import AguiTranslator
from toolview.wire.delta import Append, Reset, Slide, apply
from toolview.wire.feed import LogItem
from toolview.wire.follow import Follower, Frame

FOLLOWERS = 4


def post(server: ThreadedServer, *observations: object) -> list[int]:
    body = "".join(json.dumps(o) + "\n" for o in observations)
    response = httpx.post(f"{server.url}/api/threads/t/observations", content=body, headers=NDJSON)
    response.raise_for_status()
    seqs: list[int] = response.json()["seqs"]
    return seqs


def message(n: int) -> dict[str, str]:
    return {"kind": "message", "role": "assistant", "text": f"message {n}"}


def members(server: ThreadedServer, mode: str = "elide") -> int:
    """Followers in the thread's hub of ``mode`` (-1 on code without hubs)."""
    hubs = getattr(server.app.state.toolview, "hubs", None)
    hub = None if hubs is None else hubs.running("t", mode)
    return -1 if hubs is None else 0 if hub is None else len(hub.members)


def test_each_frame_is_made_once_whatever_the_number_of_followers(
    live_server: ThreadedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpx.post(f"{live_server.url}/api/threads", json={"id": "t"}).raise_for_status()
    post(live_server, message(1))
    pushed: list[int] = []
    push = Follower.push

    def counted(self: Follower, item: LogItem, now: float) -> list[Frame]:
        pushed.append(item.seq)  # the step that redacts and encodes a frame
        return push(self, item, now)

    started = [threading.Event() for _ in range(FOLLOWERS)]
    streams: list[list[SSEFrame]] = [[] for _ in range(FOLLOWERS)]

    def follow(n: int) -> None:
        def until(frames: list[SSEFrame]) -> bool:
            started[n].set()
            return len(frames) == 11

        url = f"{live_server.url}/api/threads/t/follow"
        streams[n].extend(read_frames(url, until=until))

    readers = [threading.Thread(target=follow, args=(n,)) for n in range(FOLLOWERS)]
    for reader in readers:
        reader.start()
    for event in started:
        assert event.wait(60)
    wait_until(lambda: members(live_server) in (-1, FOLLOWERS))  # all joined (-1: no hub)
    monkeypatch.setattr(Follower, "push", counted)
    for n in range(2, 12, 5):
        post(live_server, *(message(k) for k in range(n, n + 5)))
    for reader in readers:
        reader.join(timeout=120)
    assert [[f.id for f in frames] for frames in streams] == [
        [str(n) for n in range(1, 12)]
    ] * FOLLOWERS
    assert sorted(pushed) == list(range(2, 12))  # once each: not once per follower
    wait_until(lambda: members(live_server) == 0)  # the followers went: so did the hub


def test_each_agui_event_is_made_once_whatever_the_number_of_followers(
    live_server: ThreadedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpx.post(f"{live_server.url}/api/threads", json={"id": "t"}).raise_for_status()
    post(live_server, message(1))
    pushed: list[int] = []
    push = AguiTranslator.push

    def counted(self: AguiTranslator, seq: int, observation: Observation) -> list[BaseEvent]:
        pushed.append(seq)  # the step that redacts and translates an observation
        return push(self, seq, observation)

    started = [threading.Event() for _ in range(FOLLOWERS)]
    streams: list[list[SSEFrame]] = [[] for _ in range(FOLLOWERS)]

    def follow(n: int) -> None:
        def until(frames: list[SSEFrame]) -> bool:
            started[n].set()
            return bool(frames) and "message 11" in json.dumps(frames[-1].data)

        url = f"{live_server.url}/api/threads/t/agui?follow=1"
        streams[n].extend(read_frames(url, until=until))

    readers = [threading.Thread(target=follow, args=(n,)) for n in range(FOLLOWERS)]
    for reader in readers:
        reader.start()
    for event in started:
        assert event.wait(60)
    wait_until(lambda: members(live_server, "agui") in (-1, FOLLOWERS))
    monkeypatch.setattr(AguiTranslator, "push", counted)
    for n in range(2, 12, 5):
        post(live_server, *(message(k) for k in range(n, n + 5)))
    for reader in readers:
        reader.join(timeout=120)
    ids = [[f.id for f in frames] for frames in streams]
    assert ids == [ids[0]] * FOLLOWERS and ids[0][-1] is not None
    assert ids[0][-1].startswith("11.")
    assert sorted(pushed) == list(range(2, 12))  # once each: not once per follower
    wait_until(lambda: members(live_server, "agui") == 0)  # the followers went: so did the hub


def wait_until(condition: Callable[[], bool]) -> None:
    """Until ``condition`` holds, checked on a short tick (gives up after a minute)."""
    for _ in range(6000):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("the condition never held")


async def hub_at(hub: Hub, seq: int) -> None:
    """Until the hub has read up to ``seq``."""
    while hub.position is None or hub.position < seq:
        await hub.moved(5.0)


def test_a_stalled_member_leaves_the_hub_with_its_queue_and_holds_no_one_back(
    open_log: LogOpener,
) -> None:
    async def scenario() -> None:
        log = open_log()
        await log.create_thread("t")
        hubs = Hubs(SharedReads(log), REDACTOR, keepalive=1.0, queue_bytes=512 * 1024)
        hub = hubs.use("t", "elide")
        hubs.use("t", "elide")
        await hub_at(hub, 0)
        stalled, healthy = Member(hubs.queue_bytes), Member(hubs.queue_bytes)
        hub.join(stalled)
        hub.join(healthy)
        big = "x" * 64 * 1024
        seqs: list[int] = []
        largest = 0
        for n in range(10):  # 40 × 64 KiB: 2.5 MiB that the stalled member never takes
            last = (
                await log.append("t", [Message("assistant", f"{n}.{k} {big}") for k in range(4)])
            )[-1]
            while not seqs or seqs[-1] < last:
                chunk = await healthy.next()
                assert chunk is not None
                seqs += [frame.seq for frame in chunk.frames]
                largest = max(largest, stalled.size)
        assert seqs == list(range(1, 41))
        assert not healthy.dropped and healthy in hub.members
        assert stalled.dropped and stalled not in hub.members and hub.drops == 1
        assert not stalled.queue and stalled.size == 0  # freed when dropped, not when read
        assert largest <= hubs.queue_bytes
        hub.release()
        hub.release()
        assert hubs.running("t", "elide") is None  # the last user stopped it
        await log.aclose()

    run_async(scenario)


async def drained(stream: AsyncIterator[Chunk], until: Callable[[Chunk], bool]) -> list[Frame]:
    frames: list[Frame] = []
    async for chunk in stream:
        frames += chunk.frames
        if until(chunk):
            return frames
    return frames


def test_a_follower_dropped_by_the_hub_gets_every_frame_exactly_once(open_log: LogOpener) -> None:
    async def scenario() -> None:
        log = open_log()
        await log.create_thread("t")
        hubs = Hubs(SharedReads(log), REDACTOR, keepalive=1.0, queue_bytes=4096)
        stream = follow_chunks(hubs, "t", 0, "elide")
        first = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)  # the stream starts: it uses the hub
        hub = hubs.running("t", "elide")
        assert hub is not None
        while not hub.members:  # joined at seq 0: the thread is empty
            await hub.moved(5.0)
        for n in range(1, 41):  # one chunk each, then the member's 4 KiB are over
            last = (await log.append("t", [Message("assistant", f"{n} " + "y" * 1000)]))[-1]
            await hub_at(hub, last)
        assert hub.drops == 1 and not hub.members  # it wrote the first chunk and stopped
        frames = (await first).frames
        frames += await drained(stream, lambda chunk: chunk.seq == 40)
        assert [frame.seq for frame in frames] == list(range(1, 41))
        after = asyncio.ensure_future(anext(stream))
        while not hub.members:  # caught up: back in the hub
            await hub.moved(5.0)
        await log.append("t", [Message("assistant", "after")])
        assert [frame.seq for frame in (await after).frames] == [41]
        await stream.aclose()
        assert hubs.running("t", "elide") is None
        await log.aclose()

    run_async(scenario)


def shown(frames: list[Frame]) -> str | None:
    """What a live client shows for call c1 after ``frames``."""
    text: str | None = None
    for frame in frames:
        data = json.loads(frame.data)
        if data["kind"] == "tool-output":
            op, body = data["op"], data["text"]
            delta = (
                Append(body)
                if op == "append"
                else Slide(data["drop"], body)
                if op == "slide"
                else Reset(body)
            )
            text = apply(text, delta)
    return text


def test_a_live_follower_dropped_mid_call_shows_the_call_exactly(open_log: LogOpener) -> None:
    def result(text: str, complete: bool = False) -> Observation:
        return ToolResult(
            tool_call_id="c1", tool_name="sh", text=text, complete=complete, is_error=False
        )

    async def scenario() -> None:
        log = open_log()
        await log.create_thread("t")
        await log.append("t", [ToolCall(tool_call_id="c1", tool_name="sh", args={})])
        hubs = Hubs(SharedReads(log), REDACTOR, keepalive=1.0, queue_bytes=1)
        stream = follow_chunks(hubs, "t", 0, "live")
        frames = (await anext(stream)).frames  # the call, caught up from the log
        hub = hubs.running("t", "live")
        assert hub is not None
        joined = asyncio.ensure_future(anext(stream))
        while not hub.members:
            await hub.moved(5.0)
        text = "line 0\n"
        await log.append("t", [result(text)])
        frames += (await joined).frames  # from the hub; then it stops reading
        for n in range(1, 30):  # a message each time: a chunk each time, never coalesced
            text += f"line {n} " + "z" * 200 + "\n"
            last = (await log.append("t", [result(text), Message("assistant", f"{n}")]))[-1]
            await hub_at(hub, last)
        last = (await log.append("t", [result(text + "end\n", complete=True)]))[-1]
        await hub_at(hub, last)
        assert hub.drops >= 1
        frames += await drained(stream, lambda chunk: b'"complete":true' in chunk.data)
        ids = [frame.seq for frame in frames]
        assert ids == sorted(ids) and ids[-1] == last
        assert shown(frames) == text + "end\n"
        await stream.aclose()
        await log.aclose()

    run_async(scenario)
