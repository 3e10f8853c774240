"""capture(to=URL): a run published in the background to a real ``toolview serve``.

A follower reading the thread over SSE sees each call while the run is still
open; a server that is not there changes nothing for the agent, and stderr
says what could not be published.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer, free_port

import toolview
from toolview.contract import Observation, RunEnded, ToolCall, ToolResult, decode_observation
from toolview.remote.reader import ThreadReader

SECRET = "ghp_" + "a1B2c3" * 6


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    served = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield served
    served.kill()


def _next(stream: Iterator[object], kind: type) -> Observation:
    """The next observation of ``kind`` the follower reads (it blocks until one comes)."""
    for item in stream:
        observation = item.observation  # type: ignore[attr-defined]
        if isinstance(observation, kind):
            return observation  # type: ignore[no-any-return]
    raise AssertionError("the stream ended")


def test_a_follower_sees_the_run_live(server: ToolviewServer) -> None:
    with toolview.Publisher(f"{server.url}/threads/agent") as publisher:
        publisher.ensure_thread()  # so the follower can connect before the first post lands
    with toolview.capture(live=False, to=server.url, thread_id="agent") as rec:
        assert rec.page_url == f"{server.url}/threads/agent"
        rec.call("c1", "read_file", {"path": "a.txt", "token": SECRET})
        reader = ThreadReader(f"{server.url}/threads/agent")
        stream = reader.follow()
        call = _next(stream, ToolCall)  # arrives while the run is open
        assert isinstance(call, ToolCall) and call.tool_call_id == "c1"
        assert SECRET not in str(call.args)
        rec.result("c1", f"contents with {SECRET}")
        result = _next(stream, ToolResult)
        assert isinstance(result, ToolResult) and result.complete
        assert result.text == "contents with [redacted: github-token]"
    ended = _next(stream, RunEnded)
    reader.close()
    assert isinstance(ended, RunEnded) and ended.outcome == "completed"
    events = httpx.get(f"{server.url}/api/threads/agent/events", timeout=30).json()["events"]
    kinds = [event["observation"]["kind"] for event in events]
    assert kinds == ["run-started", "tool-call", "tool-result", "run-ended"]


def test_a_thread_url_is_used_as_it_is(server: ToolviewServer) -> None:
    with toolview.capture(live=False, to=f"{server.url}/threads/named") as rec:
        rec.message("user", "hello")
    events = httpx.get(f"{server.url}/api/threads/named/events", timeout=30).json()["events"]
    assert [event["observation"]["kind"] for event in events] == [
        "run-started",
        "message",
        "run-ended",
    ]


def test_no_server_leaves_the_agent_alone_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.jsonl"
    url = f"http://127.0.0.1:{free_port()}"
    with toolview.capture(live=False, to=url, record=record, publish_timeout=0.5) as rec:
        for number in range(50):
            rec.call(f"c{number}", "tool", {"n": number})
            rec.result(f"c{number}", {"n": number})
    observations = [decode_observation(line) for line in record.read_bytes().splitlines()]
    assert len(observations) == 102  # the agent's run is whole, the server notwithstanding
    stderr = capsys.readouterr().err
    assert f"publishing to {url}/threads/{rec.thread_id}" in stderr
    assert "publishing: failed" in stderr and "not published" in stderr


def test_a_malformed_url_is_said_before_the_run() -> None:
    with pytest.raises(ValueError, match="not a thread URL"):
        toolview.capture(to="ftp://nowhere/threads/x")
