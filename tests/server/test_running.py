"""What the live page is sent of the running calls (``/running``), and that it draws it.

Issue 22: the page decided "running" from the frames it saw, a second state
machine beside the server's ledger; it now draws the status line and the
running calls the server sends. The sequences here are those where the two
disagreed: an aborted run started again (the page kept its call aborted),
output after a run's end (the page ran the aborted call again).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient
from toolview_servers import ToolviewServer

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
    encode_observation,
)
from toolview.remote.client import Publisher


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def _post(client: TestClient, *observations: Observation) -> None:
    body = b"\n".join(encode_observation(o) for o in observations)
    assert client.post("/api/threads/t/observations", content=body).status_code < 300


def _running(client: TestClient) -> dict[str, object]:
    response = client.get("/api/threads/t/running")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    sent: dict[str, object] = msgspec.json.decode(response.content)
    return sent


def test_running_sends_the_ledger_s_running_calls_and_the_status_line(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    _post(client, RunStarted("A"), RunStarted("B"), ToolCall("c1", "shell", {}))
    _post(client, RunEnded("A", "completed"))  # another run ends: c1, in B, still runs
    sent = _running(client)
    assert (sent["line"], sent["running"]) == ("running shell", {"tv-call-c1": "c1"})
    _post(client, RunEnded("B", "aborted"), ToolCall("c2", "read", {}))  # c2 after B: aborted
    assert _running(client)["running"] == {}
    assert _running(client)["line"] == "2 calls, none running"
    _post(client, RunStarted("B"))  # B again: its call runs again, and c2 (in no run) too
    sent = _running(client)
    assert sent["line"] == "running shell, read"
    assert sent["running"] == {"tv-call-c1": "c1", "tv-call-c2": "c2"}
    assert sent["seq"] == 7


def test_running_is_404_for_a_thread_that_is_not_there(client: TestClient) -> None:
    assert client.get("/api/threads/nothing/running").status_code == 404


def _open(page: Page, server: ToolviewServer, thread: str) -> Publisher:
    publisher = Publisher(f"{server.url}/threads/{thread}")
    publisher.ensure_thread()
    publisher.publish([RunStarted("A"), ToolCall("c1", "shell", {})])
    page.goto(f"{server.url}/threads/{thread}")
    expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
    expect(page.locator("#tv-status")).to_have_text("running shell")
    publisher.publish([RunEnded("A", "aborted")])
    expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "aborted")
    expect(page.locator("#tv-status")).not_to_have_text("running shell")
    return publisher


@pytest.mark.browser
def test_an_aborted_run_started_again_shows_its_call_running_again(
    server: ToolviewServer,
) -> None:
    def scenario(page: Page) -> None:
        with _open(page, server, "again") as publisher:
            publisher.publish([RunStarted("A")])
            expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "pending")
            expect(page.locator("#tv-status")).to_have_text("running shell")

    in_browser(scenario)


@pytest.mark.browser
def test_output_after_its_run_ended_leaves_the_call_aborted(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        with _open(page, server, "late") as publisher:
            late = ToolResult("c1", "shell", "late line\n", complete=False, is_error=False)
            publisher.publish([late, Message("assistant", "after the output")])
            expect(page.locator(".tv-message-assistant")).to_contain_text("after the output")
            article = page.locator("#tv-call-c1")
            expect(article).to_contain_text("late line")  # the server's aborted call, with it
            expect(article).to_have_attribute("data-state", "aborted")
            expect(article.locator(".tv-live-output")).to_have_count(0)  # not drawn running
            expect(page.locator("#tv-status")).not_to_have_text("running shell")
            expect(page.locator("#tv-status")).to_have_text("1 call, none running")

    in_browser(scenario)
