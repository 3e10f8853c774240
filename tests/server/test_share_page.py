"""The live page's Share action in real Chromium: the thread page's Share link, the review,
then the page downloaded — holding none of the thread's credentials."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import NDJSON, ToolviewServer

from toolview.contract import ToolCall, ToolResult, encode_observation

pytestmark = pytest.mark.browser

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def test_share_shows_the_review_then_downloads_a_redacted_page(
    server: ToolviewServer, tmp_path: Path
) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "s"})
    observations = [
        ToolCall("c1", "shell", {"command": "cat .env"}),
        ToolResult("c1", "shell", f"GH={GITHUB}\n", complete=True, is_error=False),
    ]
    body = b"\n".join(encode_observation(o) for o in observations)
    posted = httpx.post(f"{server.url}/api/threads/s/observations", content=body, headers=NDJSON)
    assert posted.status_code < 300
    saved = tmp_path / "downloaded.html"

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/s")
        page.get_by_role("link", name="Share").click()
        expect(page.locator(".tv-share-list")).to_contain_text(
            "github-token — call c1 shell: output"
        )
        assert GITHUB not in page.content()
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the page (.html)").click()
        assert download.value.suggested_filename == "s.html"
        download.value.save_as(saved)

    in_browser(scenario)
    page = saved.read_text(encoding="utf-8")
    assert GITHUB not in page and "[redacted: github-token]" in page
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
