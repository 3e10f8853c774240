"""The windowed live page, the live index and the waiting page, in real Chromium (Playwright)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.remote.client import Publisher
from toolview.render.html import call_element_id

pytestmark = pytest.mark.browser

COUNT_CHANGES = """() => {
  window.tvChanges = 0;
  document.getElementById("tv-live").addEventListener("tv:calls-changed", () => {
    window.tvChanges += 1;
  });
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def calls(start: int, stop: int) -> list[Observation]:
    made: list[Observation] = []
    for i in range(start, stop):
        made.append(ToolCall(f"c{i}", "shell", {"command": f"echo {i}"}))
        made.append(ToolResult(f"c{i}", "shell", f"out {i}\n", complete=True, is_error=False))
    return made


def publisher(server: ToolviewServer, thread: str, n: int) -> Publisher:
    made = Publisher(f"{server.url}/threads/{thread}")
    made.ensure_thread()
    made.publish([Message("user", "the first message"), *calls(0, n)])
    return made


def articles(page: Page) -> int:
    return int(page.locator("#tv-live .tv-thread > article.tv-call").count())


def test_load_more_by_click_and_by_scrolling_up(server: ToolviewServer) -> None:
    publisher(server, "big", 250)

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/big")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        page.evaluate(COUNT_CHANGES)
        button = page.locator("button.tv-load-more")
        expect(button).to_have_text("190 earlier calls — load more")
        assert articles(page) == 60
        assert page.locator(f"#{call_element_id('c190')}").count() == 1
        button.click()
        expect(button).to_have_text("90 earlier calls — load more")
        assert articles(page) == 160
        ids = page.eval_on_selector_all("article.tv-call", "els => els.map(e => e.id)")
        assert ids == [call_element_id(f"c{i}") for i in range(90, 250)]  # in order
        assert page.evaluate("window.tvChanges") >= 1
        # the reader scrolls down (the script arms on it), then back up to the button
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function("window.scrollY > 0")
        page.evaluate("new Promise((done) => requestAnimationFrame(() => done(true)))")
        page.evaluate("window.scrollTo(0, 0)")
        expect(button).to_have_count(0)
        assert articles(page) == 250
        expect(page.locator("#tv-live")).to_contain_text("the first message")
        expect(page.locator("#tv-live")).to_have_attribute("data-first", "0")

    in_browser(scenario)


def test_the_page_does_not_load_everything_by_itself(server: ToolviewServer) -> None:
    publisher(server, "big", 150)

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/big")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        done = page.evaluate("fetch(location.href).then(() => true)")  # a round trip later
        assert done
        expect(page.locator("button.tv-load-more")).to_have_text("90 earlier calls — load more")
        assert articles(page) == 60

    in_browser(scenario)


def test_live_calls_join_the_window_and_calls_before_it_stay_out(server: ToolviewServer) -> None:
    live = publisher(server, "live", 120)

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/live")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        page.evaluate(COUNT_CHANGES)
        live.publish([ToolCall("new", "shell", {"command": "sleep 1"})])
        article = page.locator(f"#{call_element_id('new')}")
        expect(article).to_have_attribute("data-state", "pending")
        expect(page.locator("#tv-live")).to_have_attribute("data-calls", "121")
        # a late result for a call before the window: it is not drawn at the end
        live.publish([ToolResult("c3", "shell", "late\n", complete=True, is_error=False)])
        live.publish([ToolResult("new", "shell", "done\n", complete=True, is_error=False)])
        expect(article).to_have_attribute("data-status", "success")
        assert page.locator(f"#{call_element_id('c3')}").count() == 0
        assert articles(page) == 61
        assert page.evaluate("window.tvChanges") >= 2

    in_browser(scenario)


def test_a_reveal_loads_back_to_a_call_before_the_window(server: ToolviewServer) -> None:
    publisher(server, "far", 400)
    target = call_element_id("c7")

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/far")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        page.evaluate(
            """(id) => document.getElementById("tv-live").dispatchEvent(
                new CustomEvent("tv:reveal", { detail: { elementId: id, index: 7 } }))""",
            target,
        )
        expect(page.locator(f"#{target}")).to_be_in_viewport()
        assert articles(page) >= 400 - 7

    in_browser(scenario)


def test_the_index_updates_live(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        page.goto(server.url)
        expect(page.locator("#tv-index")).to_have_attribute("data-connected", "true")
        expect(page.locator("#tv-index")).to_contain_text("No threads yet.")
        made = Publisher(f"{server.url}/threads/fresh")
        made.ensure_thread()
        made.publish([Message("user", "build the <b>thing</b>"), ToolCall("x", "shell", {})])
        row = page.locator('tr[data-thread="fresh"]')
        expect(row.locator("a")).to_have_text("build the <b>thing</b>")  # as text
        expect(row.locator('td[data-label="Calls"]')).to_have_text("1")
        expect(row.locator(".tv-state")).to_have_text("running")  # a call open, just now
        made.publish([ToolResult("x", "shell", "no", complete=True, is_error=True)])
        expect(row.locator('td[data-label="Failed"]')).to_have_text("1")
        made.publish([Message("assistant", "it failed: what next?")])
        expect(row.locator(".tv-state")).to_have_text("waiting for input")
        expect(row.locator("time").first).to_have_attribute("datetime", re.compile(r"^\d{4}-"))

    in_browser(scenario)


def test_a_page_opened_before_its_thread_waits_and_starts(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/soon")
        expect(page.locator("#tv-status")).to_have_text("waiting for the first observation")
        made = Publisher(f"{server.url}/threads/soon")
        made.ensure_thread()
        made.publish([ToolCall("first", "shell", {"command": "ls"})])
        expect(page.locator(f"#{call_element_id('first')}")).to_have_count(1)
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        made.publish([ToolCall("second", "shell", {"command": "pwd"})])
        expect(page.locator(f"#{call_element_id('second')}")).to_have_count(1)

    in_browser(scenario)


def test_the_index_asks_the_server_for_the_page_it_shows(server: ToolviewServer) -> None:
    """Sort and filters are query parameters of ``/api/threads``; the follow stream a signal."""
    asked: list[str] = []
    for thread in ("claude-a", "codex-b"):
        with Publisher(f"{server.url}/threads/{thread}") as made:
            made.ensure_thread()
            made.publish([ToolCall("x", "shell", {})])

    def scenario(page: Page) -> None:
        page.on("request", lambda request: asked.append(request.url))
        page.goto(server.url)
        expect(page.locator("#tv-index")).to_have_attribute("data-shown", "2")
        page.get_by_label("Agent").select_option("codex")
        expect(page.locator("tr[data-thread]")).to_have_count(1)
        page.get_by_role("button", name="Calls").click()
        expect(page.locator('th[data-key="calls"]')).to_have_attribute("aria-sort", "descending")

    in_browser(scenario)
    paths = [url.removeprefix(server.url) for url in asked]
    assert "/api/threads/follow?signal" in paths
    assert any(p.startswith("/api/threads?") and "agent=codex" in p for p in paths)
    assert any("agent=codex" in p and "sort=calls" in p and "order=desc" in p for p in paths)
