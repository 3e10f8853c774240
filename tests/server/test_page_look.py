"""The live page's look in real Chromium: AA contrast light and dark, the toggle's attribute,
and a phone's width.

The server's page (fragments.css + page.css) follows a thread with a Markdown
message, an edited diff, JSON, a failure and a wide table. The live output
box ``live.js`` writes while a command runs is put in as it writes it, with
two terminal colours (in a card beside the thread, which live.js may redraw
at any time), so page.css's colours for it are measured too.
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
from page_look import CONTRAST, OVERFLOW
from toolview.contract import Descriptor, Message, ToolCall, ToolResult
from toolview.remote.client import Publisher

pytestmark = pytest.mark.browser

EDIT = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n ctx\n-port = f(1, 2)\n+port = f(1, 3)\n"
_LIVE_BOX = """() => {
  const pre = document.createElement('pre');
  pre.className = 'tv-live-output';
  for (const [cls, text] of [['tv-f2', 'ok '], ['tv-f1 tv-sb', 'red '], ['', 'plain']]) {
    const span = document.createElement('span');
    if (cls) span.className = cls;
    span.textContent = text;
    pre.append(span);
  }
  // in a card of its own beside the thread: live.js may replace the thread's markup at any
  // time (a refetch), and the box's colours are page.css's wherever it sits
  const card = document.createElement('article');
  card.className = 'tv-call';
  const body = document.createElement('div');
  body.className = 'tv-body';
  body.append(pre);
  card.append(body);
  (document.querySelector('.tv-page') || document.body).append(card);
}"""


def _observations() -> list[Any]:
    return [
        Message("user", "# Fix it\n\nPlease **fix** `port` — see [docs](https://example.com)."),
        ToolCall("d1", "edit", {"path": "a.py"}),
        ToolResult("d1", "edit", "diff", True, False, Descriptor("diff", {"diff": EDIT})),
        ToolCall("j1", "cfg", {"k": [1, True, None]}),
        ToolResult("j1", "cfg", "{}", True, False, Descriptor("json", {"value": {"a": [1, "s"]}})),
        ToolCall("f1", "bash", {"command": "false"}),
        ToolResult("f1", "bash", "boom", True, True),
        ToolCall("t1", "sql", {"query": "select * from users"}),
        ToolResult("t1", "sql", "3 rows", True, False, Descriptor("table", WIDE_TABLE)),
    ]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def test_the_live_page_reads_in_both_schemes_and_fits_a_phone(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/look") as publisher:
            publisher.ensure_thread()
            page.goto(f"{server.url}/threads/look")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish(_observations())
        expect(page.locator("#tv-call-t1")).to_have_attribute("data-state", "done")
        # a Markdown message arriving live is the server's markup, not text drawn by the script
        expect(page.locator(".tv-message h4")).to_have_text("Fix it")
        expect(page.locator(".tv-message strong")).to_have_text("fix")
        page.evaluate(_LIVE_BOX)
        for scheme, theme, background in [
            ("light", None, "rgb(243, 244, 246)"),
            ("dark", None, "rgb(13, 17, 23)"),
            ("dark", "light", "rgb(243, 244, 246)"),
            ("light", "dark", "rgb(13, 17, 23)"),
        ]:
            page.emulate_media(color_scheme=scheme)
            page.evaluate(
                "t => t ? document.documentElement.dataset.theme = t"
                " : delete document.documentElement.dataset.theme",
                theme,
            )
            measured = page.evaluate(CONTRAST)
            assert measured["scheme"] == background, (scheme, theme)
            assert measured["failures"] == [], (scheme, theme)
            assert measured["checked"] > 40
            live = page.locator(".tv-live-output span.tv-f2")
            assert live.evaluate("el => getComputedStyle(el).color") != "rgb(17, 17, 17)"
            page.set_viewport_size({"width": 390, "height": 800})
            fit = page.evaluate(OVERFLOW)
            assert fit["scrollWidth"] <= 390 and fit["sticking"] == [], fit
            assert fit["wide"] >= 1  # the table scrolls inside its card
            page.set_viewport_size({"width": 1000, "height": 800})

    in_browser(scenario)
