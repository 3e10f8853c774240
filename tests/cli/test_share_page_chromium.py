"""A shared page in real Chromium with the network blocked: it opens, shows its calls and
its sub-agent's, and asks for nothing but its own file (no script runs, none is needed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from share_sessions import AGENT_WORDS, planted_session

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")


def test_the_shared_page_reads_offline_and_requests_nothing(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium")
    planted = planted_session(tmp_path / "planted.jsonl")
    page_file = tmp_path / "shared.html"
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "share", str(tmp_path / "planted.jsonl"),
         "-o", str(page_file)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    target = page_file.as_uri()
    attempted: list[str] = []
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(java_script_enabled=False)

        def route(request_route: Any) -> None:
            if request_route.request.url == target:
                request_route.continue_()
            else:
                attempted.append(request_route.request.url)
                request_route.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("request", lambda request: request.url == target or attempted.append(request.url))
        page.goto(target, wait_until="load")
        calls = page.locator(".tv-call").count()
        shown = page.locator("body").inner_text()
        # the sub-agent's words are laid out only once opened: asked of their box, not of
        # innerText (which, with the entries' content-visibility: auto, once gave them closed)
        words = page.locator(".tv-subagent-entries").get_by_text(AGENT_WORDS).first
        closed_visible = words.is_visible()
        call = page.locator("details.tv-call-details:has(details.tv-subagent-entries)").first
        if call.get_attribute("open") is None:
            call.locator("> summary").click()
        page.locator("details.tv-subagent-entries > summary").first.click()
        opened_visible = words.is_visible()
        browser.close()
    assert attempted == []
    assert calls >= len(planted.places)  # every planted call drawn, sub-agents' among them
    assert "[redacted: github-token]" in shown and "0 failed" in shown
    assert not closed_visible and opened_visible  # opened with no script
