"""``BackgroundPublisher`` against a real ``toolview serve`` process (and dead ends)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.wire.client import PublishError
from toolview.wire.sender import BackgroundPublisher


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("sender") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db)])
    yield started
    started.kill()


def events(server: ToolviewServer, thread: str) -> list[dict[str, object]]:
    body = httpx.get(f"{server.url}/api/threads/{thread}/events", timeout=30).json()
    return [event["observation"] for event in body["events"]]


def test_everything_final_arrives_in_order_and_partials_coalesce(server: ToolviewServer) -> None:
    publisher = BackgroundPublisher(f"{server.url}/threads/burst")
    publisher.put(RunStarted("r1"))
    publisher.put(ToolCall("c1", "shell", {"command": "seq"}))
    text = ""
    for n in range(2000):  # far faster than one POST: most partials are replaced in place
        text += f"{n}\n"
        publisher.put(ToolResult("c1", "shell", text, complete=False, is_error=False))
    publisher.put(ToolResult("c1", "shell", text, complete=True, is_error=False))
    publisher.put(RunEnded("r1", "completed"))
    publisher.close()
    stored = events(server, "burst")
    kinds = [o["kind"] for o in stored]
    assert kinds[:2] == ["run-started", "tool-call"] and kinds[-2:] == ["tool-result", "run-ended"]
    assert stored[-2]["complete"] is True and stored[-2]["text"] == text
    partials = [o for o in stored if o["kind"] == "tool-result" and not o["complete"]]
    assert len(partials) >= 1
    lengths = [len(str(o["text"])) for o in partials]
    assert lengths == sorted(lengths)  # the thread never goes back to older output
    assert publisher.published == len(stored) == 4 + len(partials)
    assert publisher.published + publisher.coalesced == 2004  # each one sent or replaced


def test_a_malformed_url_fails_before_anything_starts() -> None:
    with pytest.raises(PublishError, match="not a thread URL"):
        BackgroundPublisher("127.0.0.1:8765/threads/x")


def test_an_unreachable_server_never_blocks_put_and_close_says_so() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nobody listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    publisher = BackgroundPublisher(f"http://127.0.0.1:{port}/threads/x", backoff=0.01)
    for n in range(5000):
        publisher.put(Message("assistant", f"m{n}"))  # capacity is 1024: must not fail here
    with pytest.raises(PublishError, match=r"cannot reach .*not published"):
        publisher.close()
    assert publisher.published == 0


def test_a_refusing_server_is_a_clear_error(tmp_path: Path) -> None:
    guarded = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "t.db"), "--token", "t"])
    try:
        publisher = BackgroundPublisher(f"{guarded.url}/threads/x", token="wrong", backoff=0.01)
        publisher.put(Message("user", "hi"))
        with pytest.raises(PublishError, match=r"refused \(401\)"):
            publisher.close()
    finally:
        guarded.kill()


def test_a_server_that_never_answers_cannot_hold_the_producer() -> None:
    with socket.socket() as listener:  # accepts connections, never answers a request
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        publisher = BackgroundPublisher(
            f"http://127.0.0.1:{port}/threads/x",
            capacity=2,
            retries=0,
            block_timeout=0.2,
            timeout=2,
        )
        for n in range(10):  # the queue fills; put waits briefly, then gives up — never hangs
            publisher.put(Message("assistant", f"m{n}"))
        with pytest.raises(PublishError, match="not keeping up"):
            publisher.close()
