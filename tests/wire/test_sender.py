"""``BackgroundPublisher`` against a real ``toolview serve`` process (and dead ends)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer

from toolview.contract import Descriptor, Message, RunEnded, RunStarted, ToolCall, ToolResult
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
    shell = Descriptor("shell", {"command": "seq", "stdout": text, "exitCode": 0})
    publisher.put(ToolResult("c1", "shell", text, complete=True, is_error=False, descriptor=shell))
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


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("sender-64k") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db), "--body-limit", "64k"])
    yield started
    started.kill()


def test_a_lower_body_limit_is_learnt_and_nothing_is_lost_or_stored_twice(
    small_server: ToolviewServer,
) -> None:
    publisher = BackgroundPublisher(f"{small_server.url}/threads/many")
    sent = [Message("assistant", f"{n:03d} " + "x" * 10_000) for n in range(40)]  # 400 kB
    for message in sent:
        publisher.put(message)
    publisher.close()
    stored = events(small_server, "many")
    assert [o["text"] for o in stored] == [m.text for m in sent]  # all, once, in order
    assert publisher.published == 40


def test_one_observation_over_the_limit_alone_is_a_clear_error(
    small_server: ToolviewServer,
) -> None:
    publisher = BackgroundPublisher(f"{small_server.url}/threads/huge-call", backoff=0.01)
    publisher.put(RunStarted("r1"))
    publisher.put(ToolCall("c9", "shell", {"command": "x" * 100_000}))
    publisher.put(RunEnded("r1", "completed"))
    with pytest.raises(PublishError) as raised:
        publisher.close()
    message = str(raised.value)
    assert "the tool-call of call 'c9'" in message and "limit of 65536" in message
    assert "2 observations not published" in message  # the call and what came after it
    assert [o["kind"] for o in events(small_server, "huge-call")] == ["run-started"]


def test_a_final_result_over_the_limit_is_published_cut(small_server: ToolviewServer) -> None:
    publisher = BackgroundPublisher(f"{small_server.url}/threads/huge-result")
    text = "".join(f"{n}\n" for n in range(40_000))  # 229 kB
    publisher.put(ToolCall("c1", "shell", {"command": "seq"}))
    publisher.put(ToolResult("c1", "shell", text, complete=False, is_error=False))
    shell = Descriptor("shell", {"command": "seq", "stdout": text, "exitCode": 0})
    publisher.put(ToolResult("c1", "shell", text, complete=True, is_error=False, descriptor=shell))
    publisher.put(RunEnded("r1", "completed"))
    publisher.close()  # no error: everything the thread needs arrived
    stored = events(small_server, "huge-result")
    assert [o["kind"] for o in stored] == ["tool-call", "tool-result", "run-ended"]
    result = stored[1]
    assert result["complete"] is True and text.endswith(str(result["text"]))
    truncated = result["descriptor"]["truncated"]  # type: ignore[index]
    assert truncated == {"shown": len(str(result["text"])), "total": len(text), "unit": "bytes"}
    assert publisher.cut == {"c1": len(str(result["text"]))}
