"""Follow newest (static/follow.js) in real Chromium, with calls arriving live.

At the bottom, the page stays there as calls arrive; scrolled up, it stays where the
reader is and a pill ("Jump to newest") takes them back. Every wait is on the page's
state (data-following, the pill, a call drawn), never on time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import ToolCall, ToolResult, Usage
from toolview.remote.client import Publisher

pytestmark = pytest.mark.browser


@pytest.fixture
def server(served: Callable[..., ToolviewServer], tmp_path: Path) -> ToolviewServer:
    """A server on a log of its own (the ``served`` fixture kills it after)."""
    return served("--db", str(tmp_path / "log.db"))


def call(publisher: Publisher, n: int) -> None:
    """One finished call ``c{n}`` whose output is tall enough to push the page down."""
    text = "".join(f"line {i}\n" for i in range(12))
    publisher.publish([ToolCall(f"c{n}", "shell", {"command": f"step {n}"})])
    publisher.publish([ToolResult(f"c{n}", "shell", text, complete=True, is_error=False)])


def test_the_page_follows_newest_and_offers_the_way_back(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        page.set_viewport_size({"width": 900, "height": 500})
        live = page.locator("#tv-live")
        pill = page.get_by_role("button", name="Jump to newest")
        with Publisher(f"{server.url}/threads/follow") as publisher:
            publisher.ensure_thread()
            publisher.publish([Usage(model="claude-x", input_tokens=1200, output_tokens=80)])
            for n in range(6):
                call(publisher, n)
            page.goto(f"{server.url}/threads/follow")
            expect(live).to_have_attribute("data-connected", "true")
            page.keyboard.press("End")
            expect(live).to_have_attribute("data-following", "true")
            for n in range(6, 9):  # at the bottom: each new call is brought into view
                call(publisher, n)
                expect(page.locator(f"#tv-call-c{n}")).to_be_in_viewport()
                expect(live).to_have_attribute("data-following", "true")
            expect(pill).to_be_hidden()

            page.evaluate("window.scrollTo(0, 0)")  # the reader scrolls up to read
            expect(live).to_have_attribute("data-following", "false")
            call(publisher, 9)
            expect(pill).to_be_visible()
            expect(page.locator("#tv-call-c9")).not_to_be_in_viewport()
            assert page.evaluate("window.scrollY") == 0  # the page did not move under them
            for scheme in ("light", "dark"):  # the pill, and the header's facts, in both
                page.emulate_media(color_scheme=scheme)
                assert list(axe_violations(page)) == [], scheme

            pill.click()
            expect(page.locator("#tv-call-c9")).to_be_in_viewport()
            expect(pill).to_be_hidden()
            expect(live).to_have_attribute("data-following", "true")
            call(publisher, 10)  # and it follows again
            expect(page.locator("#tv-call-c10")).to_be_in_viewport()

    in_browser(scenario)
