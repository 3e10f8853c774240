"""The live page's search box in Chromium: counts, highlights, next/previous, regex, the server.

Matches are wrapped in ``<mark>`` built as elements (a payload in the text
stays text); a thread larger than the page's window is counted by the server
(``/api/threads/{id}/search``) and a match outside the window asks live.js
for its call (``tv:reveal``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer
from viewer_page import PHONE, open_viewer
from viewer_threads import EXAMPLE, hostile, many_calls, write_thread

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]


def test_plain_search_counts_marks_and_steps_through_matches(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", scheme="dark")
        count = page.locator("#tv-search-count")
        page.locator("#tv-search-input").fill("APP.PY")  # plain text ignores case
        marks = page.locator("#tv-live mark.tv-match")
        expect(count).to_have_text(re.compile(r"^\d+ matches$"))
        expect(count).to_have_text(f"{marks.count()} matches")
        assert marks.count() >= 4
        assert {t.lower() for t in marks.all_text_contents()} == {"app.py"}
        expect(page.locator("#tv-status")).to_have_text(f"{marks.count()} matches")
        page.locator("#tv-search-input").press("Enter")
        expect(count).to_have_text(f"1 of {marks.count()} matches")
        expect(marks.nth(0)).to_have_class("tv-match tv-match-current")
        page.get_by_role("button", name="Previous match").click()
        last = marks.count()
        expect(count).to_have_text(f"{last} of {last} matches")
        expect(marks.nth(last - 1)).to_have_class("tv-match tv-match-current")
        expect(marks.nth(last - 1)).to_be_in_viewport()
        assert "q=APP.PY" in page.url
        page.reload()  # the query is kept in the URL and searched again
        expect(page.locator("#tv-search-input")).to_have_value("APP.PY")
        expect(count).to_have_text(f"{last} matches")

    in_browser(scenario)


def test_regex_search_and_a_bad_pattern(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", size=PHONE)
        page.locator("#tv-search-regex").check()
        page.locator("#tv-search-input").fill(r"99\d\d")
        marks = page.locator("#tv-live mark.tv-match")
        expect(page.locator("#tv-search-count")).to_have_text("99 matches")  # 9901-9999 are shown
        assert all(len(t) == 4 and t.startswith("99") for t in marks.all_text_contents())
        page.locator("#tv-search-input").fill("(unclosed")
        expect(page.locator("#tv-search-input")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#tv-search-count")).to_contain_text("Invalid regular expression")
        expect(marks).to_have_count(0)
        assert "regex=1" in page.url

    in_browser(scenario)


def test_a_payload_found_by_search_stays_text(served: Serve, tmp_path: Path) -> None:
    server = served(
        "--db",
        str(tmp_path / "log.db"),
        "--load",
        str(write_thread(tmp_path / "hostile.jsonl", hostile())),
    )

    def scenario(page: Page) -> None:
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        open_viewer(page, f"{server.url}/threads/hostile")
        # every payload drawn: the thread is longer than the page's window
        page.locator("button.tv-load-more").click()
        expect(page.locator("button.tv-load-more")).to_have_count(0)
        page.locator("#tv-search-input").fill("<script>")
        marks = page.locator("#tv-live mark.tv-match")
        expect(page.locator("#tv-search-count")).not_to_have_text("")
        assert marks.count() > 0
        assert {t.lower() for t in marks.all_text_contents()} == {"<script>"}
        expect(page.locator("#tv-live mark script, #tv-live mark img")).to_have_count(0)
        assert page.evaluate("window.__pwned") is None
        assert dialogs == []

    in_browser(scenario)


def test_a_windowed_thread_is_counted_by_the_server_and_reveals_calls(
    served: Serve, tmp_path: Path
) -> None:
    server = served(
        "--db",
        str(tmp_path / "log.db"),
        "--load",
        str(write_thread(tmp_path / "big.jsonl", many_calls(300))),
    )

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/big")
        page.evaluate(
            "document.getElementById('tv-live').addEventListener('tv:reveal',"
            " (e) => { window.__revealed = e.detail; })"
        )
        page.locator("#tv-search-regex").check()
        page.locator("#tv-search-input").fill(r"\bstep 5\b")
        # call 5's args and output, 195 calls before the last-100 window
        count = page.locator("#tv-search-count")
        expect(count).to_have_text("2 matches in the thread, 0 on the page")
        assert page.locator("#tv-call-c5").count() == 0
        page.locator("#tv-search-input").press("Enter")
        page.wait_for_function("() => window.__revealed !== undefined")
        detail = page.evaluate("window.__revealed")
        assert detail == {"elementId": "tv-call-c5", "index": 5}
        # live.js loads back to call 5; the search goes on to its first match there
        current = page.locator("#tv-call-c5 mark.tv-match-current")
        expect(current).to_be_in_viewport()
        expect(current).to_have_text("step 5")
        # the calls loaded reach the window: the page holds the whole thread, counted here
        # (the page holds "step 5" thrice: the gist, which an opened call does not draw and
        # the search passes over, the command and the output)
        expect(count).to_have_text(re.compile(r"^[23] of 3 matches$"))

    in_browser(scenario)
