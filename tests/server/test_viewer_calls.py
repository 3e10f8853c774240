"""Per-call tools in Chromium: expand/collapse all, the action menu, show more, raw observations."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from page_browser import in_browser
from playwright.sync_api import Locator, Page, expect
from toolview_servers import ToolviewServer
from viewer_page import PHONE, open_viewer
from viewer_threads import EXAMPLE, write_thread

from toolview.contract import ToolCall, ToolResult

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]


def _clipboard(page: Page) -> str:
    return str(page.evaluate("navigator.clipboard.readText()"))


def _choose(call: Locator, action: str) -> None:
    """Open the call's "⋯" menu with the pointer and click ``action`` in it."""
    call.get_by_role("button", name="Call actions").first.click()
    call.get_by_role("menuitem", name=action).click()


def test_expand_all_and_collapse_all(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", size=PHONE)
        details = page.locator("#tv-live details.tv-call-details")
        assert details.count() > 0
        page.get_by_role("button", name="Collapse all").click()
        expect(page.locator("#tv-live details.tv-call-details[open]")).to_have_count(0)
        expect(page.locator("#tv-status")).to_have_text(f"{details.count()} calls collapsed")
        page.get_by_role("button", name="Expand all").click()
        expect(page.locator("#tv-live details.tv-call-details:not([open])")).to_have_count(0)

    in_browser(scenario)


def test_copy_buttons_put_the_call_on_the_clipboard(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))
    output = httpx.get(f"{server.url}/api/threads/thread/calls/c12/output?limit=1000000").json()

    def scenario(page: Page) -> None:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        open_viewer(page, f"{server.url}/threads/thread", scheme="dark")
        status = page.locator("#tv-status")
        first = page.locator("#tv-call-c1")
        _choose(first, "Copy command")
        expect(status).to_have_text("Copied command")  # said once the clipboard has it
        assert _clipboard(page) == "ls -la src"
        # c2's path is the file header's (no args line, so no Copy args: issue 24's denser
        # cards); c5's SQL is printed by nothing else
        c2 = page.locator("#tv-call-c2")
        c2.get_by_role("button", name="Call actions").click()
        expect(c2.get_by_role("menuitem", name="Copy link")).to_be_visible()
        expect(c2.get_by_role("menuitem", name="Copy args")).to_have_count(0)
        c2.get_by_role("button", name="Call actions").click()  # closes it again
        expect(c2.get_by_role("menu")).to_be_hidden()
        _choose(page.locator("#tv-call-c5"), "Copy args")
        expect(status).to_have_text("Copied args")
        assert "select name, size from files" in _clipboard(page)
        _choose(first, "Copy link")
        expect(status).to_have_text("Copied link")
        assert _clipboard(page) == f"{server.url}/threads/thread#tv-call-c1"
        _choose(page.locator("#tv-call-c12"), "Copy output")
        expect(status).to_have_text("Copied output")
        assert _clipboard(page) == output["text"]  # all the log has, not the page's cut

    in_browser(scenario)


def test_a_refused_clipboard_selects_the_text_instead(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread")
        page.evaluate(
            "() => { navigator.clipboard.writeText = () => Promise.reject(Error('no')); }"
        )
        _choose(page.locator("#tv-call-c1"), "Copy command")
        fallback = page.locator("#tv-call-c1 textarea.tv-copy-fallback")
        expect(fallback).to_have_value("ls -la src")
        expect(fallback).to_be_focused()
        selected = page.evaluate(
            "[document.activeElement.selectionStart, document.activeElement.selectionEnd]"
        )
        assert selected == [0, len("ls -la src")]

    in_browser(scenario)


def test_show_more_fetches_the_output_and_raw_shows_the_observations(
    served: Serve, tmp_path: Path
) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))
    whole = httpx.get(f"{server.url}/api/threads/thread/calls/c12/output?limit=1000000").json()

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", size=PHONE)
        call = page.locator("#tv-call-c12")
        more = call.get_by_role("button", name="Show more")
        assert whole["next"] is None and len(whole["text"]) < 65536  # one chunk of the page's
        more.click()
        expect(more).to_have_count(0)  # nothing more to fetch: the button goes
        expect(call.locator(".tv-more-output")).to_have_text(whole["text"])
        expect(page.locator("#tv-status")).to_have_text("Showing the whole output")
        raw = page.locator("#tv-call-c1 details.tv-raw")
        expect(raw).to_be_hidden()  # the menu's item shows it
        _choose(page.locator("#tv-call-c1"), "Raw observations")
        expect(raw.locator("summary")).to_be_focused()
        expect(raw.locator("pre")).to_contain_text('"toolCallId": "c1"')
        expect(raw.locator("pre")).to_contain_text('"kind": "tool-result"')

    in_browser(scenario)


def test_show_more_appends_chunk_after_chunk(served: Serve, tmp_path: Path) -> None:
    text = "".join(f"line {n:05d} " + "x" * 60 + "\n" for n in range(3000))  # ~213,000 chars
    call = ToolCall("long", "bash", {"command": "make"})
    done = ToolResult("long", "bash", text, complete=True, is_error=False)
    path = write_thread(tmp_path / "long.jsonl", [call, done])
    server = served("--db", str(tmp_path / "log.db"), "--load", str(path))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/long", scheme="dark")
        more = page.locator("#tv-call-long").get_by_role("button", name="Show more")
        fetched = page.locator("#tv-call-long .tv-more-output")
        more.click()
        expect(page.locator("#tv-status")).to_have_text(
            f"Showing 65,536 of {len(text):,} characters"
        )
        expect(fetched).to_have_text(text[:65536])
        more.click()
        expect(page.locator("#tv-status")).to_have_text(
            f"Showing 131,072 of {len(text):,} characters"
        )
        more.click()
        expect(page.locator("#tv-status")).to_have_text(
            f"Showing 196,608 of {len(text):,} characters"
        )
        more.click()
        expect(more).to_have_count(0)
        expect(page.locator("#tv-status")).to_have_text("Showing the whole output")
        assert fetched.text_content() == text

    in_browser(scenario, "--lang=en-US")
