"""A table wider than its card, in real Chromium: the card scrolls sideways, the page does not.

Both pages a person opens: the server's live page (the table arriving over
SSE) and the standalone document ``toolview show --surface html`` writes.
Cells break only between words, so an e-mail address or a URL stays on one
line and the table, not the page, grows wider.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from corpora.wide_table import WIDE_TABLE
from toolview.contract import Descriptor, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.remote.client import Publisher
from toolview.render.html import render_page

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 800, "height": 700}
URL = "https://partners.example.com/campaign/autumn-2024"

# Measured in the page (the DevTools protocol is not subject to the page's CSP).
_MEASURE = """(url) => {
  const wrap = document.querySelector('.tv-table-wrap');
  const card = wrap.closest('article.tv-call');
  const root = document.documentElement;
  const lines = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getClientRects().length;
  };
  const before = wrap.scrollLeft;
  wrap.scrollLeft = 400;
  return {
    wrapScroll: wrap.scrollWidth, wrapClient: wrap.clientWidth,
    scrolled: wrap.scrollLeft - before,
    cardRight: card.getBoundingClientRect().right, viewport: root.clientWidth,
    pageScroll: root.scrollWidth, bodyScroll: document.body.scrollWidth,
    urlLines: lines([...wrap.querySelectorAll('td')].find(td => td.textContent === url)),
    proseLines: lines(wrap.querySelector('td.tv-cell-prose')),
  };
}"""


def _observations() -> list[Any]:
    return [
        ToolCall("c1", "sql", {"query": "select * from users"}),
        ToolResult("c1", "sql", "3 rows", True, False, Descriptor("table", WIDE_TABLE)),
    ]


def _assert_scrolls_inside_the_card(page: Page) -> None:
    m = page.evaluate(_MEASURE, URL)
    assert m["wrapScroll"] > m["wrapClient"] + 200, m  # the table is wider than its card
    assert m["scrolled"] > 0, m  # and the card scrolls sideways to show the rest
    assert m["cardRight"] <= m["viewport"], m  # the card itself stays on the page
    assert m["pageScroll"] <= m["viewport"], m  # the page never scrolls sideways
    assert m["bodyScroll"] <= m["viewport"], m
    assert m["urlLines"] == 1, m  # no mid-word break: the URL keeps to one line
    assert 1 < m["proseLines"] <= 3, m  # prose wraps between words, not a word a line


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def test_a_wide_table_scrolls_inside_its_card_on_the_live_page(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        page.set_viewport_size(VIEWPORT)
        with Publisher(f"{server.url}/threads/wide") as publisher:
            publisher.ensure_thread()
            page.goto(f"{server.url}/threads/wide")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish(_observations())
        expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "done")
        expect(page.locator("#tv-call-c1 td").first).to_be_visible()
        _assert_scrolls_inside_the_card(page)

    in_browser(scenario)


def test_a_wide_table_scrolls_inside_its_card_on_the_standalone_page(tmp_path: Path) -> None:
    document = tmp_path / "wide.html"
    document.write_text(render_page(Thread.from_observations(_observations())), encoding="utf-8")

    def scenario(page: Page) -> None:
        page.set_viewport_size(VIEWPORT)
        page.goto(document.as_uri())
        expect(page.locator("#tv-call-c1 td").first).to_be_visible()
        _assert_scrolls_inside_the_card(page)

    in_browser(scenario)
