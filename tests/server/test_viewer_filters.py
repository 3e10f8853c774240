"""Filter chips in Chromium: counts by status, tool and kind, kept in the URL, by keyboard."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer
from viewer_page import PHONE, open_viewer, page_overflows
from viewer_threads import EXAMPLE

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]
TOP = "#tv-live article.tv-call:not(article.tv-call article.tv-call)"


def _chip(page: Page, group: str, label: str) -> object:
    return page.locator(f'.tv-filter-group[aria-label="{group}"] .tv-chip', has_text=label)


def test_status_chips_count_filter_and_survive_a_reload(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread")
        calls = page.locator(TOP)
        total = calls.count()
        failed = page.locator('.tv-filter-group[aria-label="Status"] .tv-chip[data-value="error"]')
        expect(failed).to_have_text("error 1")
        expect(failed).to_have_attribute("aria-pressed", "false")
        success = page.locator('.tv-chip[data-value="success"]')
        expect(success).to_have_text(
            f"success {page.locator(TOP + '[data-status=success]').count()}"
        )
        failed.focus()  # keyboard only: a chip is a toggle button
        page.keyboard.press("Enter")
        expect(page.locator(TOP + ":visible")).to_have_count(1)
        expect(page.locator(TOP + '[data-status="error"]')).to_be_visible()
        expect(page.locator("#tv-status")).to_have_text(f"Showing 1 of {total} calls")
        pressed = page.locator('.tv-chip[data-value="error"]')
        expect(pressed).to_have_attribute("aria-pressed", "true")
        expect(pressed).to_be_focused()  # the rebuilt chip keeps the focus
        assert "status=error" in page.url
        page.reload()
        expect(page.locator("#tv-live")).to_have_attribute("data-viewer", "ready")
        expect(page.locator(TOP + ":visible")).to_have_count(1)
        expect(page.locator('.tv-chip[data-value="error"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        page.locator('.tv-chip[data-value="not_found"]').click()  # OR within a group
        expect(page.locator(TOP + ":visible")).to_have_count(2)
        page.get_by_role("button", name="Clear filters").click()
        expect(page.locator(TOP + ":visible")).to_have_count(total)
        assert "status=" not in page.url

    in_browser(scenario)


def test_tool_and_kind_chips_combine(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", scheme="dark", size=PHONE)
        bash = page.locator(TOP + '[data-tool="bash"]')
        shells = page.locator(TOP + '[data-tool="bash"][data-kind="shell"]')
        assert bash.count() >= 2
        chip = page.locator('.tv-filter-group[aria-label="Tool"] .tv-chip[data-value="bash"]')
        expect(chip).to_have_text(f"bash {bash.count()}")
        chip.click()
        expect(page.locator(TOP + ":visible")).to_have_count(bash.count())
        page.locator('.tv-filter-group[aria-label="Kind"] .tv-chip[data-value="shell"]').click()
        expect(page.locator(TOP + ":visible")).to_have_count(shells.count())  # AND across
        assert "tool=bash" in page.url and "kind=shell" in page.url
        assert not page_overflows(page)

    in_browser(scenario)
