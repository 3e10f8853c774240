"""A sub-agent at work on the live page (real Chromium): its calls appear under its call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import RunStarted, ToolCall, ToolResult
from toolview.remote.client import Publisher

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def under(parent: str, observation: Any) -> Any:
    return msgspec.structs.replace(observation, parent_call_id=parent)


def test_a_sub_agent_s_calls_show_under_its_call_and_an_opened_section_stays_open(
    server: ToolviewServer,
) -> None:
    def scenario(page: Page) -> None:
        publisher = Publisher(f"{server.url}/threads/agents")
        publisher.ensure_thread()
        publisher.publish(
            [RunStarted("r"), ToolCall("agent", "Agent", {"prompt": "look", "subagent_type": "X"})]
        )
        page.goto(f"{server.url}/threads/agents")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        publisher.publish([under("agent", ToolCall("s1", "Bash", {"command": "ls"}))])
        article = page.locator("#tv-call-agent")
        nested = article.locator("#tv-subcall-s1")
        expect(nested).to_have_attribute("data-state", "pending")
        expect(article.locator("#tv-sub-agent")).not_to_have_attribute("open", "")
        article.locator("#tv-sub-agent > summary").click()  # the reader opens it
        expect(nested).to_be_visible()
        publisher.publish([under("agent", ToolResult("s1", "Bash", "a.txt", True, False))])
        expect(nested).to_have_attribute("data-state", "done")
        expect(article.locator("#tv-sub-agent")).to_have_attribute("open", "")
        expect(nested).to_be_visible()
        publisher.publish([ToolResult("agent", "Agent", "found a.txt", True, False)])
        expect(article).to_have_attribute("data-state", "done")
        expect(article.locator(".tv-subagent-head")).to_contain_text("sub-agent X — 1 call")
        expect(page.locator("article.tv-call")).to_have_count(2)  # the call, and s1 inside it

    in_browser(scenario)
