"""The live page in real Chromium routes calls whose ids hold secrets, and shows none.

Two calls whose ids differ only in their (fake) GitHub token run at once: the
page learns each call's opaque id from its frames, fetches each call's
fragment by it (``/calls/{opaque}/html``), draws each call's running output in
its own box, shows the redacted tool name on the status line, and the
completed results land in the right boxes. No byte of either secret reaches
the DOM.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from server_threads import ThreadedServer

from toolview.wire.log.sqlite import SQLiteLog

pytestmark = pytest.mark.browser

FIRST = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
SECOND = "ghp_" + "Yv1B6yYoZcMErBP0N4pqmxKiJu9SsyD9pfZ5"
NDJSON = {"content-type": "application/x-ndjson"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with ThreadedServer(lambda: SQLiteLog(tmp_path / "log.db"), keepalive=1.0) as served:
        yield served


def post(server: ThreadedServer, *observations: dict[str, Any]) -> None:
    body = "".join(json.dumps(o) + "\n" for o in observations)
    url = f"{server.url}/api/threads/ids/observations"
    httpx.post(url, content=body, headers=NDJSON).raise_for_status()


def result(call: str, text: str, complete: bool) -> dict[str, Any]:
    return {
        "kind": "tool-result",
        "toolCallId": call,
        "toolName": f"deploy --token {call.removeprefix('call-')}",
        "text": text,
        "complete": complete,
        "isError": False,
    }


def test_calls_with_secret_ids_route_to_their_own_boxes(server: ThreadedServer) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "ids"}).raise_for_status()
    first, second = f"call-{FIRST}", f"call-{SECOND}"

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/ids")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        for call, secret in ((first, FIRST), (second, SECOND)):
            name = f"deploy --token {secret}"
            post(server, {"kind": "tool-call", "toolCallId": call, "toolName": name, "args": {}})
        post(server, result(first, "first running\n", False))
        post(server, result(second, "second running\n", False))
        calls = page.locator("article.tv-call")
        expect(calls).to_have_count(2)
        expect(calls.nth(0).locator(".tv-live-output")).to_have_text("first running")
        expect(calls.nth(1).locator(".tv-live-output")).to_have_text("second running")
        expect(page.locator("#tv-status")).to_contain_text(
            "running deploy --token [redacted: github-token]"
        )
        post(server, result(second, "second done", True), result(first, "first done", True))
        expect(calls.nth(0)).to_have_attribute("data-state", "done")
        expect(calls.nth(1)).to_have_attribute("data-state", "done")
        expect(calls.nth(0)).to_contain_text("first done")
        expect(calls.nth(1)).to_contain_text("second done")
        expect(calls).to_have_count(2)
        html = page.content()
        for secret in (FIRST, SECOND):
            assert secret[4:14] not in html

    in_browser(scenario)
