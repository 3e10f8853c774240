"""``BackgroundPublisher`` against a real ``toolview serve`` process (and dead ends)."""

from __future__ import annotations

import itertools
import socket
import time
from collections.abc import Iterator
from email.utils import formatdate
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from toolview_servers import ServedApp, ToolviewServer

from toolview.contract import Descriptor, Message, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.remote.client import PublishError
from toolview.remote.sender import BackgroundPublisher


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


def test_an_unreachable_server_never_blocks_put_for_long_and_close_says_so() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nobody listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    heard: list[str] = []
    publisher = BackgroundPublisher(
        f"http://127.0.0.1:{port}/threads/x", backoff=0.01, block_timeout=0.2, notify=heard.append
    )
    for n in range(5000):
        publisher.put(Message("assistant", f"m{n}"))  # capacity is 1024: held 0.2 s once, no more
    with pytest.raises(PublishError, match=r"cannot reach .*5000 observations not published"):
        publisher.close(timeout=0.5)
    assert publisher.published == 0
    assert "keeping the observations and retrying" in heard[0]
    assert any(h.startswith("a message observation not published") for h in heard)


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
        heard: list[str] = []
        publisher = BackgroundPublisher(
            f"http://127.0.0.1:{port}/threads/x",
            capacity=2,
            block_timeout=0.2,
            timeout=30,
            notify=heard.append,
        )
        publisher.put(RunStarted("r1"))
        connection, _ = listener.accept()  # the first POST is in flight, unanswered
        publisher.put(ToolCall("c1", "shell", {}))
        publisher.put(ToolResult("c1", "shell", "ok", complete=False, is_error=False))
        publisher.put(ToolResult("c1", "shell", "ok", complete=True, is_error=False))  # drops it
        publisher.put(RunEnded("r1", "completed"))  # full of finals: held 0.2 s, then lost
        publisher.put(Message("assistant", "bye"))  # lost at once: no second wait
        with pytest.raises(PublishError) as raised:
            publisher.close(timeout=0.5)
        connection.close()
    message = str(raised.value)
    assert "gave up on" in message and "after 0.5 s" in message
    # named: the call and its result; counted: the rest (the POST in flight is in doubt)
    assert "5 observations not published: the tool-call of call 'c1'" in message
    assert (
        "the tool-result of call 'c1'" in message
        and "1 message, 1 run-ended, 1 run-started" in message
    )
    assert [h for h in heard if "not published" in h] == [
        "the run-ended of run 'r1' not published: 2 observations are waiting for "
        f"http://127.0.0.1:{port} (no answer)",
        "a message observation not published: 2 observations are waiting for "
        f"http://127.0.0.1:{port} (no answer)",
    ]
    assert publisher.coalesced == 1  # the partial made room for the final, never the reverse


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


class Flaky:
    """A server that answers each POST of a batch from a script of answers, then stores.

    Not ``toolview serve``: the real server only ever says ``Retry-After: 1``
    (seconds), and this checks the publisher against every form a server may
    send — an HTTP-date, seconds, none, and answers that will not change.
    """

    def __init__(self, answers: list[tuple[int, dict[str, str]]]) -> None:
        self.answers = answers
        self.attempts: list[tuple[float, bytes, str]] = []  # (monotonic, body, key)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        if request.url.path == "/api/threads":
            response: Response = JSONResponse({"id": "x"}, 201)
        else:
            body = await request.body()
            self.attempts.append((time.monotonic(), body, request.headers["idempotency-key"]))
            status, headers = self.answers.pop(0) if self.answers else (200, {})
            content = {"seqs": [1]} if status == 200 else {"error": f"answer {status}"}
            response = JSONResponse(content, status, headers=headers)
        await response(scope, receive, send)


def test_retry_after_is_honoured_in_both_forms_and_the_batch_resent_as_it_was() -> None:
    in_2_s = formatdate(time.time() + 2, usegmt=True)  # whole seconds: 1 to 2 s from now
    flaky = Flaky([(503, {"retry-after": in_2_s}), (429, {"retry-after": "1"}), (502, {})])
    with ServedApp(flaky) as app:
        publisher = BackgroundPublisher(f"{app.url}/threads/x", backoff=0.01, max_backoff=0.02)
        publisher.put(Message("user", "hi"))
        publisher.close(timeout=30)
    times = [at for at, _, _ in flaky.attempts]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert len(times) == 4 and publisher.published == 1
    assert gaps[0] >= 0.95 and gaps[1] >= 0.95  # as the server asked (the backoff: 0.01 s)
    assert gaps[2] < gaps[1]  # a 502 without Retry-After: the backoff alone
    assert len({(body, key) for _, body, key in flaky.attempts}) == 1  # byte-identical, one key


def test_a_server_that_always_says_retry_now_is_not_hammered() -> None:
    """503 with ``Retry-After: 0`` on every answer, for one second of close timeout.

    Counted, not timed: the backoff (0.05 s, doubling) allows a handful of
    attempts in that second; a busy loop made hundreds. A slow machine can only
    make fewer.
    """
    flaky = Flaky([(503, {"retry-after": "0"})] * 100_000)
    with ServedApp(flaky) as app:
        publisher = BackgroundPublisher(f"{app.url}/threads/x")
        publisher.put(Message("user", "hi"))
        with pytest.raises(PublishError, match="1 observation not published"):
            publisher.close(timeout=1.0)
    assert 2 <= len(flaky.attempts) <= 10, f"{len(flaky.attempts)} attempts in one second"


@pytest.mark.parametrize(
    "bad",
    [
        ToolResult("c1", "shell", "cut emoji \ud83d", complete=True, is_error=False),
        ToolCall("c1", "shell", {"when": object()}),
    ],
    ids=["lone-surrogate", "not-json"],
)
def test_an_observation_that_cannot_be_encoded_is_an_error_not_a_silent_loss(
    bad: ToolCall | ToolResult,
) -> None:
    """The sender's thread died on it: nothing more was sent, and close() said all was well."""
    flaky = Flaky([])
    with ServedApp(flaky) as app:
        publisher = BackgroundPublisher(f"{app.url}/threads/x")
        publisher.put(bad)
        publisher.put(Message("user", "after"))
        with pytest.raises(PublishError) as raised:
            publisher.close(timeout=30)
    message = str(raised.value)
    assert "cannot encode" in message and "2 observations not published" in message
    assert "call 'c1'" in message and "1 message" in message


@pytest.mark.parametrize("status", [400, 401, 403, 409, 415, 422])
def test_an_answer_that_will_not_change_is_not_retried(status: int) -> None:
    flaky = Flaky([(status, {"retry-after": "0"})] * 5)
    with ServedApp(flaky) as app:
        publisher = BackgroundPublisher(f"{app.url}/threads/x", backoff=0.01)
        publisher.put(Message("user", "hi"))
        with pytest.raises(
            PublishError, match=rf"refused \({status}\).*1 observation not published"
        ):
            publisher.close(timeout=30)
    assert len(flaky.attempts) == 1
