"""Real Chromium for the html surface's tests: one browser per session.

``open_html`` loads markup (via ``page.set_content`` or a ``file://`` URL) in a
fresh browser context and reports everything a hostile payload could do if it
ran: dialogs, console messages, requests that leave the page (each aborted
before it is sent), ``window.__pwned`` markers, and what the DOM holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from html_browser import CHROMIUM, CHROMIUM_ARGS, OpenHtml, PageReport, inspect_page

playwright_api = pytest.importorskip("playwright.sync_api")

SCREENSHOTS = Path(__file__).parents[3] / ".tmp" / "screenshots"
_LOCAL = ("data:", "about:")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One real Chromium per test module (launching costs about a second).

    Module scope, not package or session: sync_playwright leaves an asyncio
    loop running in the main thread until it exits, which breaks any later
    test that calls ``asyncio.run``; and this folder has no ``__init__.py``,
    so pytest (8+) would hold a "package" fixture until the session ends.
    """
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium")
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def open_html(browser: Any, tmp_path: Path) -> Iterator[OpenHtml]:
    """Open markup in a fresh context; return a :class:`PageReport`.

    ``via="file"`` writes it to a temporary file and navigates to its
    ``file://`` URL (how a user opens ``toolview show --surface html`` output);
    ``screenshot=`` saves a full-page PNG under ``.tmp/screenshots/``.
    """
    contexts: list[Any] = []

    def _open(
        html: str, *, via: str = "content", screenshot: str | None = None, width: int = 1000
    ) -> PageReport:
        report = PageReport()
        context = browser.new_context(viewport={"width": width, "height": 800})
        contexts.append(context)
        page = context.new_page()
        target_path = tmp_path / f"page{len(contexts)}.html"
        target = target_path.as_uri()
        page.on("dialog", lambda dialog: (report.dialogs.append(dialog.message), dialog.dismiss()))
        page.on("console", lambda message: report.console.append(message.text))
        page.on("pageerror", lambda error: report.console.append(f"pageerror: {error}"))

        def _record(request: Any) -> None:
            if request.url != target and not request.url.startswith(_LOCAL):
                report.requests.append(request.url)

        def _route(route: Any) -> None:
            if route.request.url == target:
                route.continue_()
            else:
                route.abort()

        page.on("request", _record)
        context.route("**/*", _route)
        if via == "file":
            target_path.write_text(html, encoding="utf-8")
            page.goto(target, wait_until="load")
        else:
            page.set_content(html, wait_until="load")
        report.dom = inspect_page(page)
        if screenshot is not None:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / screenshot), full_page=True)
        return report

    yield _open
    for context in contexts:
        context.close()
