"""The web page in real Chromium (Playwright): live growth, restarts, hostile input."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from page_browser import in_browser, run_to_live_page
from playwright.sync_api import Dialog, Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import (
    STATUS_DISPLAY,
    Descriptor,
    Message,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)
from toolview.contract.thread import Thread
from toolview.remote.client import Publisher
from toolview.render.html import call_element_id
from toolview.safety.opaque import opaque_id
from toolview.server.page.running import pending_calls, pending_ids

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


def result(text: str, complete: bool = False, call: str = "c1") -> ToolResult:
    return ToolResult(call, "shell", text, complete=complete, is_error=False)


def test_a_live_command_appears_grows_and_completes(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        publisher = Publisher(f"{server.url}/threads/live")
        publisher.ensure_thread()
        page.goto(f"{server.url}/threads/live")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        publisher.publish([ToolCall("c1", "shell", {"command": "count"})])
        article = page.locator("#tv-call-c1")
        expect(article).to_have_attribute("data-state", "pending")
        expect(page.locator("#tv-status")).to_have_text("running shell")
        script = (
            "import time\n"
            "for i in range(12):\n"
            "    print(f'line {i}', flush=True)\n"
            "    time.sleep(0.05)\n"
        )
        command = subprocess.Popen(
            [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
        )
        assert command.stdout is not None
        output = ""
        for line in command.stdout:
            output += line
            publisher.publish([result(output)])
            if line == "line 5\n":
                expect(article.locator(".tv-live-output")).to_contain_text("line 5")
        command.wait()
        expect(article.locator(".tv-live-output")).to_have_text(output)
        publisher.publish([result(output, complete=True)])
        expect(article).to_have_attribute("data-state", "done")
        expect(article.locator(".tv-live-output")).to_have_count(0)
        expect(article).to_contain_text("line 11")
        expect(page.locator("#tv-status")).to_have_text("1 call, none running")
        publisher.close()

    in_browser(scenario)


def test_the_page_survives_a_server_restart(tmp_path: Path) -> None:
    def scenario(page: Page) -> None:
        db = str(tmp_path / "log.db")
        first = ToolviewServer.start(["--port", "0", "--db", db])
        port = str(first.port)
        with Publisher(f"{first.url}/threads/t") as publisher:
            publisher.publish([ToolCall("c1", "shell", {}), result("one\n")])
        page.goto(f"{first.url}/threads/t")
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
        expect(page.locator("#tv-call-c1 .tv-live-output")).to_have_text("one\n")
        first.kill()
        expect(page.locator("#tv-live")).to_have_attribute("data-connected", "false")
        second = ToolviewServer.start(["--port", port, "--db", db])
        try:
            with Publisher(f"{second.url}/threads/t") as publisher:
                publisher.publish([result("one\ntwo\n"), result("one\ntwo\n", complete=True)])
                publisher.publish([ToolCall("c2", "shell", {}), result("after", True, call="c2")])
            expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "done")
            expect(page.locator("#tv-call-c2")).to_have_attribute("data-state", "done")
            expect(page.locator("article.tv-call")).to_have_count(2)  # no duplicates
            expect(page.locator("#tv-call-c1")).to_contain_text("two")
        finally:
            second.kill()

    in_browser(scenario)


HOSTILE = [
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    '"><svg onload="window.__pwned=1">',
    "javascript:window.__pwned=1",
    "\u202e<b>bidi</b>\x1b]0;title\x07",
]


def test_hostile_inputs_in_every_field_never_run_script(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        dialogs: list[str] = []

        def on_dialog(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        with Publisher(f"{server.url}/threads/evil") as publisher:
            publisher.ensure_thread()
            page.goto(f"{server.url}/threads/evil")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            for n, bad in enumerate(HOSTILE):
                call = f"c{n}{bad}"
                publisher.publish(
                    [
                        Message("assistant", bad),
                        ToolCall(call, bad, {bad: bad}),
                        ToolResult(call, bad, bad, complete=False, is_error=False),
                        ToolResult(
                            call,
                            bad,
                            bad,
                            complete=True,
                            is_error=n % 2 == 0,
                            descriptor=Descriptor("markdown", {"markdown": f"[x]({bad}) {bad}"}),
                        ),
                        ToolRefused(f"r{n}{bad}", bad, bad, guard=bad),
                    ]
                )
            expect(page.locator("article.tv-call")).to_have_count(2 * len(HOSTILE))
        expect(page.locator('article.tv-call[data-state="refused"]')).to_have_count(len(HOSTILE))
        page.reload()
        expect(page.locator("article.tv-call")).to_have_count(2 * len(HOSTILE))
        expect(page.locator('article.tv-call[data-state="refused"]')).to_have_count(len(HOSTILE))
        assert page.evaluate("window.__pwned") is None
        assert dialogs == []
        sources = page.locator("script").evaluate_all("all => all.map(s => s.src)")
        served_only = ["live.js", "viewer.js", "follow.js", "menu.js", "mcp-app.js", "decide.js"]
        assert [s.rsplit("/", 1)[-1] for s in sources] == served_only

    in_browser(scenario)


def test_toolview_run_to_shows_a_growing_command(server: ToolviewServer) -> None:
    """The whole path: ``toolview run --to`` publishing live, the page following it."""
    httpx.post(f"{server.url}/api/threads", json={"id": "run"}).raise_for_status()
    script = (
        "import time\n"
        "for i in range(40):\n"
        "    print(f'tick {i}', flush=True)\n"
        "    time.sleep(0.1)\n"
    )

    def scenario(page: Page) -> None:
        runner = run_to_live_page(page, server.url, "run", script)
        try:
            article = page.locator("article.tv-call").first
            expect(article.locator(".tv-live-output")).to_contain_text("tick 3")
            expect(page.locator("#tv-status")).to_contain_text("running")
            expect(article).to_have_attribute("data-state", "done")
            expect(article).to_contain_text("tick 39")
        finally:
            assert runner.wait(timeout=120) == 0

    in_browser(scenario)


def thread_refetches(urls: list[str], thread: str) -> list[str]:
    """Requests for the whole thread fragment (what the page no longer needs live)."""
    return [url for url in urls if url.endswith(f"/api/threads/{thread}/html")]


def test_messages_calls_and_receipts_appear_live_without_a_thread_refetch(
    server: ToolviewServer,
) -> None:
    def scenario(page: Page) -> None:
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        with Publisher(f"{server.url}/threads/chat") as publisher:
            publisher.ensure_thread()
            publisher.publish([Message("user", "before the page"), ToolCall("c0", "shell", {})])
            page.goto(f"{server.url}/threads/chat")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish([Message("assistant", "<b>not bold</b>\n  two lines")])
            publisher.publish([ToolCall("c1", "shell", {"command": "ls"})])
            publisher.publish([ToolResult("c1", "shell", "a\nb", complete=True, is_error=False)])
            publisher.publish([ToolRefused("r1", "shell", "rm -rf / is not allowed", guard="g")])
            publisher.publish([Message("user", "thanks 👍🏽 and 👨‍👩‍👧")])
            messages = page.locator(".tv-message")
            expect(messages).to_have_count(3)
            expect(page.locator("#tv-call-r1")).to_have_attribute("data-state", "refused")
            expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "done")
            expect(messages.nth(1).locator(".tv-message-text")).to_have_text(
                "<b>not bold</b>\n  two lines", use_inner_text=False
            )
            expect(messages.nth(1).locator("b")).to_have_count(0)
            expect(page.locator(".tv-summary")).to_contain_text("3 calls")
        live = messages.evaluate_all("els => els.map(el => el.outerHTML)")
        assert thread_refetches(urls, "chat") == []
        page.reload()
        expect(page.locator(".tv-message")).to_have_count(3)
        reloaded = page.locator(".tv-message").evaluate_all("els => els.map(el => el.outerHTML)")
        assert live == reloaded  # drawn live exactly as the server renders it

    in_browser(scenario)


def test_a_run_ended_mid_call_turns_its_pending_calls_aborted(server: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        with Publisher(f"{server.url}/threads/abort") as publisher:
            publisher.ensure_thread()
            # c0 is pending when the page loads (the page knows it from the server)
            publisher.publish([RunStarted("r1"), ToolCall("c0", "shell", {})])
            page.goto(f"{server.url}/threads/abort")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            expect(page.locator("#tv-call-c0")).to_have_attribute("data-state", "pending")
            publisher.publish([ToolCall("c1", "shell", {}), result("half\n", call="c1")])
            publisher.publish([ToolCall("c2", "shell", {}), result("done", True, call="c2")])
            expect(page.locator("#tv-call-c1 .tv-live-output")).to_have_text("half")
            publisher.publish([RunEnded("r1", "aborted")])
            for call in ("c0", "c1"):
                article = page.locator(f"#tv-call-{call}")
                expect(article).to_have_attribute("data-state", "aborted")
                expect(article.locator(".tv-status .tv-sr")).to_have_text(
                    STATUS_DISPLAY["cancelled"].aria
                )
            expect(page.locator("#tv-call-c2")).to_have_attribute("data-state", "done")
            expect(page.locator("#tv-status")).to_have_text("3 calls, none running")
            # interrupted is not empty: the output watched stays, with how much there was
            expect(page.locator("#tv-call-c1 .tv-body pre")).to_have_text("half")
            expect(page.locator("#tv-call-c1 .tv-body")).to_contain_text("stopped after 1 line")
        assert thread_refetches(urls, "abort") == []
        # only the calls still pending were fetched again after the run ended
        assert sum(url.endswith("/call?id=c2") for url in urls) == 2  # started, completed

    in_browser(scenario)


def test_a_run_ending_leaves_the_calls_of_another_open_run_running(server: ToolviewServer) -> None:
    """Runs A and B open, a call in B, A ends: the page still says that call is running."""

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/two-runs") as publisher:
            publisher.ensure_thread()
            publisher.publish([RunStarted("A")])
            page.goto(f"{server.url}/threads/two-runs")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish([RunStarted("B"), ToolCall("c1", "shell", {})])
            expect(page.locator("#tv-status")).to_have_text("running shell")
            publisher.publish([RunEnded("A", "completed"), ToolCall("c2", "read", {})])
            expect(page.locator("#tv-call-c2")).to_have_attribute("data-state", "pending")
            expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "pending")
            expect(page.locator("#tv-status")).to_have_text("running shell, read")

    in_browser(scenario)


def test_a_run_that_says_why_it_ended_shows_it_live_on_its_calls_and_closing_line(
    server: ToolviewServer,
) -> None:
    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/why") as publisher:
            publisher.ensure_thread()
            page.goto(f"{server.url}/threads/why")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish([RunStarted("r1"), ToolCall("c1", "shell", {})])
            publisher.publish([result("tick1\ntick2\n")])
            expect(page.locator("#tv-call-c1 .tv-live-output")).to_have_text("tick1\ntick2")
            reason = "interrupted by SIGINT \x1b[31m<script>"
            publisher.publish([RunEnded("r1", "aborted", reason)])
            body = page.locator("#tv-call-c1 .tv-body")
            expect(body).to_contain_text("The run ended (aborted: interrupted by SIGINT")
            expect(body.locator("pre")).to_have_text("tick1\ntick2")
            expect(page.locator(".tv-note")).to_contain_text("Run ended (aborted): interrupted")
            assert "\x1b" not in page.content()

    in_browser(scenario)


def test_a_message_the_server_would_clean_is_shown_as_the_server_shows_it(
    server: ToolviewServer,
) -> None:
    hidden = "admin\u202e txt.exe \x1b[31mred\x1b[0m"

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/odd") as publisher:
            publisher.ensure_thread()
            page.goto(f"{server.url}/threads/odd")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            # the thread fetched for the first one already holds the plain ones after it
            publisher.publish(
                [
                    Message("assistant", hidden),
                    Message("user", "plain"),
                    Message("user", "x\n" * 150),
                    Message("assistant", "plain too"),
                ]
            )
            expect(page.locator(".tv-message")).to_have_count(4)
            expect(page.locator(".tv-message").first).to_contain_text("<U+202E>")
            expect(page.locator(".tv-message details.tv-trunc")).to_have_count(1)
            publisher.publish([Message("user", "last")])
            expect(page.locator(".tv-message")).to_have_count(5)
        live = page.locator(".tv-message").evaluate_all("els => els.map(el => el.outerHTML)")
        page.reload()
        expect(page.locator(".tv-message")).to_have_count(5)
        reloaded = page.locator(".tv-message").evaluate_all("els => els.map(el => el.outerHTML)")
        assert live == reloaded

    in_browser(scenario)


def test_the_page_names_pending_calls_by_the_ids_their_frames_carry() -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4  # a GitHub token as a call id: never spelled out
    thread = Thread.from_observations(
        [
            ToolCall("done", "shell", {}),
            ToolResult("done", "shell", "ok", complete=True, is_error=False),
            ToolCall("c1", "shell", {}),
            ToolCall(token, "shell", {}),
        ]
    )
    pending = pending_calls(thread)
    assert [e.tool_call_id for e in pending] == ["c1", token]
    named = json.loads(pending_ids(pending))
    assert token not in json.dumps(named)
    assert named == {"tv-call-c1": "c1", call_element_id(token): opaque_id(token)}


def test_thinking_is_collapsed_live_and_the_summary_gains_time_and_tokens(
    server: ToolviewServer,
) -> None:
    """Drawn live as the server draws it; usage and times reach the summary without a refetch."""

    def scenario(page: Page) -> None:
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        with Publisher(f"{server.url}/threads/think") as publisher:
            publisher.ensure_thread()
            publisher.publish([Message("user", "go", at="2026-12-01T23:44:20Z")])
            page.goto(f"{server.url}/threads/think")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish([Message("thinking", "first, the tests")])
            publisher.publish([Usage(model="claude-x", input_tokens=1200, output_tokens=80)])
            publisher.publish([Message("assistant", "done", at="2026-12-01T23:56:23Z")])
            thinking = page.locator("details.tv-message-thinking")
            expect(thinking).to_have_count(1)
            expect(thinking.locator("summary.tv-role")).to_have_text("Thinking")
            expect(thinking).not_to_have_attribute("open", "")
            expect(thinking.locator(".tv-message-text")).not_to_be_visible()
            summary = page.locator(".tv-summary")
            expect(summary).to_contain_text("time 12 min 3 s")
            expect(summary).to_contain_text("tokens claude-x: 1,200 input, 80 output")
        live = page.locator(".tv-message").evaluate_all("els => els.map(el => el.outerHTML)")
        assert thread_refetches(urls, "think") == []
        page.reload()
        expect(page.locator(".tv-message")).to_have_count(3)
        reloaded = page.locator(".tv-message").evaluate_all("els => els.map(el => el.outerHTML)")
        assert live == reloaded

    in_browser(scenario)


def test_thinking_visibly_opens(server: ToolviewServer) -> None:
    """Its summary has a marker and a pointer (not an empty bar), and a click opens it."""

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/opens") as publisher:
            publisher.ensure_thread()
            publisher.publish([Message("thinking", "first, the tests")])
            page.goto(f"{server.url}/threads/opens")
            summary = page.locator("details.tv-message-thinking > summary")
            expect(summary).to_have_text("Thinking")
            assert summary.evaluate("el => getComputedStyle(el).display") == "list-item"
            assert summary.evaluate("el => getComputedStyle(el).cursor") == "pointer"
            summary.click()
            expect(page.locator(".tv-message-thinking .tv-message-text")).to_be_visible()

    in_browser(scenario)
