"""A fresh page of a real Chromium (Playwright) for the live page's tests."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect, sync_playwright
from toolview_servers import run_in_thread

__all__ = ["CHROMIUM_ARGS", "TIMEOUT", "in_browser"]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT = 60_000  # ms: the machine is shared; never assert on speed
expect.set_options(timeout=TIMEOUT)


def in_browser(scenario: Callable[[Page], None], *chromium_args: str) -> None:
    """Run ``scenario`` with a fresh page of a real Chromium (started with
    ``chromium_args`` too), on a thread of its own."""

    def run() -> None:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=[*CHROMIUM_ARGS, *chromium_args]
            )
            try:
                page = browser.new_context().new_page()
                page.set_default_timeout(TIMEOUT)
                scenario(page)
            finally:
                browser.close()

    run_in_thread(run)
