"""A fresh page of a real Chromium (Playwright) for the live page's tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

from playwright.sync_api import Page, expect, sync_playwright
from toolview_servers import run_in_thread

__all__ = ["CHROMIUM_ARGS", "TIMEOUT", "in_browser", "run_to_live_page"]

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


def run_to_live_page(page: Page, url: str, thread: str, script: str) -> subprocess.Popen[bytes]:
    """Open ``thread``'s live page, wait until it follows, then start ``toolview run --to``
    it with a Python ``script`` as the command: the live path from a real runner to the page."""
    page.goto(f"{url}/threads/{thread}")
    expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
    command = [sys.executable, "-m", "toolview", "run", "--to", f"{url}/threads/{thread}"]
    return subprocess.Popen(
        [*command, "--", sys.executable, "-c", script],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
