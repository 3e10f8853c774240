"""A coloured command published live with ``run --to``: coloured spans on the page, no ESC.

The page follows the thread over SSE while ``toolview run`` publishes a
command that writes SGR colours and a ``\\r`` progress line. While it runs the
live output shows classed spans; after, the server-rendered call does; at no
point does an ESC reach the browser -- not in the DOM, not in any byte of the
follow stream (read here beside the page, in the same mode).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from page_browser import in_browser, run_to_live_page
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

pytestmark = pytest.mark.browser

SCRIPT = (
    "import sys, time\n"
    "for i in range(30):\n"
    "    print(f'\\x1b[32mok\\x1b[0m tick {i} \\x1b[1;31mred\\x1b[0m', flush=True)\n"
    "    sys.stdout.write(f'\\x1b]0;title\\x07progress {i}%\\r'); sys.stdout.flush()\n"
    "    time.sleep(0.1)\n"
    "print('progress done ')\n"
)
_NO_ESC = "() => document.documentElement.outerHTML.includes('\\x1b')"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def _read_stream(url: str, lines: list[str], stop: threading.Event) -> None:
    """Every line of the live follow stream until the call completes (or ``stop``)."""
    with httpx.stream("GET", url, timeout=120) as response:
        for line in response.iter_lines():
            lines.append(line)
            if stop.is_set() or ('"complete":true' in line and "tool-output" in line):
                return


def _esc_in_frame(line: str) -> bool:
    """A raw ESC byte, or one the frame's JSON decodes to in a live output text."""
    if "\x1b" in line:
        return True
    if not line.startswith("data:"):
        return False
    data = json.loads(line[5:])
    return data.get("kind") == "tool-output" and "\x1b" in data.get("text", "")


def test_a_coloured_command_run_live_shows_spans_and_no_esc(server: ToolviewServer) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "colour"}).raise_for_status()
    lines: list[str] = []
    stop = threading.Event()
    follow = f"{server.url}/api/threads/colour/follow?mode=live"
    reader = threading.Thread(target=_read_stream, args=(follow, lines, stop), daemon=True)
    reader.start()

    def scenario(page: Page) -> None:
        runner = run_to_live_page(page, server.url, "colour", SCRIPT)
        try:
            article = page.locator("article.tv-call").first
            live = article.locator(".tv-live-output")
            expect(live).to_contain_text("tick 3")
            expect(live.locator("span.tv-f2").first).to_have_text("ok")
            expect(live.locator("span.tv-f1.tv-sb").first).to_have_text("red")
            assert not page.evaluate(_NO_ESC)
            assert "\u241b" not in live.inner_text()  # nothing shown as a neutralized ESC
            expect(article).to_have_attribute("data-state", "done")
            expect(article).to_contain_text("tick 29")
            expect(article.locator("pre span.tv-f2").first).to_have_text("ok")
            expect(article.locator("pre span.tv-f1.tv-sb").first).to_have_text("red")
            expect(article).to_contain_text("progress done")
            expect(article).not_to_contain_text("progress 29%")  # the last frame only
            assert not page.evaluate(_NO_ESC)
        finally:
            assert runner.wait(timeout=120) == 0

    try:
        in_browser(scenario)
    finally:
        stop.set()
        reader.join(timeout=30)
    assert any("tool-output" in line for line in lines), lines[:5]
    assert not [line for line in lines if _esc_in_frame(line)]
