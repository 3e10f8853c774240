"""``Publisher`` against a real ``toolview serve`` process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer

from toolview.contract import Message, ToolCall, ToolResult
from toolview.remote.client import Publisher, PublishError, parse_thread_url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("publisher") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db), "--token", "s3cret"])
    yield started
    started.kill()


def test_parse_thread_url_accepts_page_and_api_forms() -> None:
    assert parse_thread_url("http://h:1/threads/x") == ("http://h:1", "x")
    assert parse_thread_url("http://h:1/api/threads/x/") == ("http://h:1", "x")
    with pytest.raises(PublishError, match="not a thread URL"):
        parse_thread_url("ftp://h/threads/x")


def test_publish_creates_the_thread_and_numbers_the_batch(server: ToolviewServer) -> None:
    with Publisher(f"{server.url}/threads/build", token="s3cret") as publisher:
        seqs = publisher.publish(
            [
                ToolCall("c1", "shell", {"command": "make"}),
                ToolResult("c1", "shell", "ok\n", complete=True, is_error=False),
            ]
        )
        assert seqs == [1, 2]
        assert publisher.publish([Message("assistant", "done")]) == [3]
        assert publisher.page_url == f"{server.url}/threads/build"
    events = httpx.get(
        f"{server.url}/api/threads/build/events", headers={"authorization": "Bearer s3cret"}
    ).json()
    assert [e["observation"]["kind"] for e in events["events"]] == [
        "tool-call",
        "tool-result",
        "message",
    ]


def test_a_wrong_token_is_a_clear_error(server: ToolviewServer) -> None:
    with (
        Publisher(f"{server.url}/threads/other", token="wrong") as publisher,
        pytest.raises(PublishError, match="401"),
    ):
        publisher.publish([Message("user", "hi")])


def test_an_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    with (
        Publisher("http://127.0.0.1:9/threads/x", timeout=5) as publisher,
        pytest.raises(PublishError, match="cannot reach"),
    ):
        publisher.publish([Message("user", "hi")])


def test_publishing_again_under_the_same_key_answers_the_original_seqs(
    server: ToolviewServer,
) -> None:
    with Publisher(f"{server.url}/threads/retry", token="s3cret") as publisher:
        batch = [Message("assistant", "once")]
        first = publisher.publish(batch, key="batch-1")
        assert publisher.publish(batch, key="batch-1") == first  # a retry: stored once
        assert publisher.publish(batch) != first  # no key given: a fresh one, stored again
        assert publisher.publish(batch) != publisher.publish(batch)
        with pytest.raises(PublishError, match=r"422.*different batch"):
            publisher.publish([Message("assistant", "other")], key="batch-1")
    events = httpx.get(
        f"{server.url}/api/threads/retry/events", headers={"authorization": "Bearer s3cret"}
    ).json()["events"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]


def test_a_malformed_key_fails_before_anything_is_sent() -> None:
    with (
        Publisher("http://127.0.0.1:9/threads/x", timeout=5) as publisher,
        pytest.raises(PublishError, match="idempotency key"),
    ):
        publisher.publish([Message("user", "hi")], key="has space")
