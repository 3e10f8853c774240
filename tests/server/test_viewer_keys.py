"""Keyboard-only use, the theme toggle and relative times, in Chromium, desktop and 390 px."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer
from viewer_page import PHONE, open_viewer, page_overflows
from viewer_threads import EXAMPLE, many_calls, write_thread

from toolview.server.page.header.toolbar import KEYS

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]
_FOCUSED_CALL = "document.activeElement.closest('article.tv-call')?.id ?? null"


def _visible_calls(page: Page) -> list[str]:
    return list(
        page.evaluate(
            "[...document.querySelectorAll('#tv-live article.tv-call')]"
            ".filter(a => a.checkVisibility()).map(a => a.id)"
        )
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_j_k_o_slash_and_question_mark(served: Serve, tmp_path: Path, size: str) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(
            page, f"{server.url}/threads/thread", **({"size": PHONE} if size == "phone" else {})
        )
        calls = _visible_calls(page)
        page.keyboard.press("j")
        page.wait_for_function(f"() => {_FOCUSED_CALL} === {calls[0]!r}")
        page.keyboard.press("j")
        page.keyboard.press("j")
        page.wait_for_function(f"() => {_FOCUSED_CALL} === {calls[2]!r}")
        expect(page.locator(f"#{calls[2]}")).to_be_in_viewport()
        focused_outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert focused_outline != "none"  # visible focus
        page.keyboard.press("k")
        page.wait_for_function(f"() => {_FOCUSED_CALL} === {calls[1]!r}")
        details = page.locator(f"#{calls[1]} details.tv-call-details").first
        was_open = details.evaluate("d => d.open")
        page.keyboard.press("o")
        expect(details).to_have_js_property("open", not was_open)
        page.keyboard.press("o")
        expect(details).to_have_js_property("open", was_open)
        page.keyboard.press("Enter")  # on the focused summary: the native toggle
        expect(details).to_have_js_property("open", not was_open)
        page.keyboard.press("Enter")
        expect(details).to_have_js_property("open", was_open)
        page.keyboard.press("/")
        search = page.locator("#tv-search-input")
        expect(search).to_be_focused()
        page.keyboard.type("jk?")  # typing in the box is text, never a key command
        expect(search).to_have_value("jk?")
        expect(page.locator("#tv-keys")).not_to_be_visible()
        page.keyboard.press("Escape")
        expect(search).not_to_be_focused()
        expect(search).to_have_value("jk?")
        page.keyboard.press("?")
        dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
        expect(dialog).to_be_visible()
        expect(dialog.locator("dt")).to_have_count(len(KEYS))
        page.keyboard.press("Escape")
        expect(dialog).not_to_be_visible()
        assert not page_overflows(page)

    in_browser(scenario)


def test_the_theme_toggle_is_remembered(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread")
        html = page.locator("html")
        expect(html).not_to_have_attribute("data-theme", re.compile(".*"))
        page.get_by_label("Theme").select_option("dark")
        expect(html).to_have_attribute("data-theme", "dark")
        page.reload()
        expect(page.locator("#tv-live")).to_have_attribute("data-viewer", "ready")
        expect(html).to_have_attribute("data-theme", "dark")
        expect(page.get_by_label("Theme")).to_have_value("dark")
        page.get_by_label("Theme").select_option("light")
        expect(html).to_have_attribute("data-theme", "light")
        page.get_by_label("Theme").select_option("system")
        expect(html).not_to_have_attribute("data-theme", re.compile(".*"))
        assert page.evaluate("localStorage.getItem('toolview.theme')") == "system"

    in_browser(scenario)


def test_times_read_relative_with_the_local_time_on_hover(served: Serve, tmp_path: Path) -> None:
    server = served(
        "--db",
        str(tmp_path / "log.db"),
        "--load",
        str(write_thread(tmp_path / "timed.jsonl", many_calls(20))),
    )

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/timed")
        times = page.locator("#tv-live time.tv-time")
        assert times.count() >= 20
        expect(times.first).to_have_text(re.compile(r"\d+ (minutes|hour) ago"))
        title = times.first.get_attribute("title") or ""
        assert re.search(r"\d{4}", title) and re.search(r"\d\d:\d\d:\d\d", title)

    in_browser(scenario, "--lang=en-US")
