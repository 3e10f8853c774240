"""A real Chromium the test starts itself, so a watchdog can bound a step on a frozen tab.

Playwright keeps a bound by asking the page: on a tab whose thread never yields
(a regular expression backtracking on it), ``expect(…, timeout=)``,
``wait_for_function`` and ``evaluate`` never return, and the suite hangs. This
browser is our own process (Playwright attaches over CDP): a step still running
at its bound kills it, the pending call fails at once, and the step reports the
overrun as an assertion.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from page_browser import CHROMIUM_ARGS, TIMEOUT
from playwright.sync_api import Browser, Page, Playwright, sync_playwright
from toolview_servers import run_in_thread

__all__ = ["WatchedBrowser", "in_watched_browser"]

_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


class WatchedBrowser:
    """Headless Chromium on a CDP port; ``within(seconds)`` bounds a step on its page."""

    def __init__(self, playwright: Playwright, profile: Path) -> None:
        command = ["/usr/bin/chromium", "--headless", "--remote-debugging-port=0"]
        command += [f"--user-data-dir={profile}", *CHROMIUM_ARGS, "about:blank"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        self.overran = threading.Event()
        assert self.process.stderr is not None
        try:
            endpoint = _endpoint(self.process.stderr)
            self.browser: Browser = playwright.chromium.connect_over_cdp(endpoint)
            self.page: Page = self.browser.contexts[0].new_page()
        except BaseException:
            self.close()
            raise
        self.page.set_default_timeout(TIMEOUT)

    @contextmanager
    def within(self, seconds: float, what: str) -> Iterator[None]:
        """Fails (the browser killed) if the block still runs after ``seconds``."""

        def overrun() -> None:
            self.overran.set()
            self.process.kill()

        watchdog = threading.Timer(seconds, overrun)
        watchdog.start()
        try:
            yield
        except Exception as error:
            if self.overran.is_set():
                raise AssertionError(f"{what}: no answer within {seconds} s") from error
            raise
        finally:
            watchdog.cancel()
        assert not self.overran.is_set(), f"{what}: no answer within {seconds} s"

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


def _endpoint(stderr: IO[str]) -> str:
    """The CDP address Chromium prints at start; the rest of its log is drained, unread."""
    for line in stderr:
        found = _LISTENING.search(line)
        if found:
            threading.Thread(target=stderr.read, daemon=True).start()
            return found.group(1)
    raise RuntimeError("chromium exited before listening for CDP")


def in_watched_browser(profile: Path, scenario: Callable[[WatchedBrowser], None]) -> None:
    """Run ``scenario`` with a fresh watched Chromium (profile in ``profile``), on a thread
    of its own (see ``run_in_thread``)."""

    def run() -> None:
        with sync_playwright() as playwright:
            watched = WatchedBrowser(playwright, profile)
            try:
                scenario(watched)
            finally:
                watched.close()

    run_in_thread(run)
