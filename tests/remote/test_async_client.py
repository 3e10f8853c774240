"""``AsyncPublisher`` against a real ``toolview serve``: the same answers as ``Publisher``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer, free_port, run_async

import toolview
from toolview.contract import Message, ToolCall
from toolview.remote import PublishError


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    served = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield served
    served.kill()


def test_publish_and_retry_with_the_same_key(server: ToolviewServer) -> None:
    batch = [Message(role="user", text="hi"), ToolCall(tool_call_id="c1", tool_name="t", args={})]

    async def publish() -> tuple[list[int], list[int], list[int]]:
        async with toolview.AsyncPublisher(f"{server.url}/threads/async") as publisher:
            first = await publisher.publish(batch, key="batch-1")
            again = await publisher.publish(batch, key="batch-1")  # a retry: stored once
            more = await publisher.publish([Message(role="assistant", text="ok")])
            assert await publisher.publish([]) == []
        return first, again, more

    first, again, more = run_async(publish)
    assert first == again == [1, 2] and more == [3]
    events = httpx.get(f"{server.url}/api/threads/async/events", timeout=30).json()["events"]
    assert len(events) == 3


def test_errors_are_publish_errors() -> None:
    with pytest.raises(PublishError, match="not a thread URL"):
        toolview.AsyncPublisher("http://127.0.0.1/nothing")

    async def unreachable() -> None:
        url = f"http://127.0.0.1:{free_port()}/threads/x"
        async with toolview.AsyncPublisher(url, timeout=5) as publisher:
            await publisher.publish([Message(role="user", text="hi")])

    with pytest.raises(PublishError) as raised:
        run_async(unreachable)
    assert raised.value.transient and "cannot reach" in str(raised.value)

    async def bad_key() -> None:
        async with toolview.AsyncPublisher("http://127.0.0.1:1/threads/x") as publisher:
            await publisher.publish([Message(role="user", text="hi")], key="")

    with pytest.raises(PublishError, match="idempotency key"):
        run_async(bad_key)
