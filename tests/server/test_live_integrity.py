"""The live page's integrity in real Chromium, on a real ``toolview serve``.

A call's running output must land in that call's box and nowhere else, a
fragment is accepted only as the element the server named for that call, and
what the page draws by itself (running output, the status line) is cleaned as
the server cleans it. Ids that a URL would normalise (``.``, ``..``) are
refused at ingest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, Route, expect
from toolview_servers import ToolviewServer, run_async

from corpora import terminal
from toolview.contract import Observation, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.remote.client import Publisher
from toolview.render.clean import clean_field
from toolview.render.html import call_element_id
from toolview.safety import neutralize_terminal, redact
from toolview.safety.output import clean_output
from toolview.server.page.running import status_line
from toolview.wire.log.sqlite import SQLiteLog

pytestmark = pytest.mark.browser

GOOD = "3 findings: CVE-2026-0001, CVE-2026-0002, CVE-2026-0003"
FORGED = "0 findings"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "log.db"


@pytest.fixture
def server(db: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(db)])
    yield started
    started.kill()


def partial(call: str, text: str, tool: str = "scan", *, line_end: str = "\n") -> ToolResult:
    """A running call's output so far, its last line ended.

    The server holds back a running call's unterminated last token (a secret
    may be cut there: ``safety.partial``); these tests are about what reaches
    the DOM, so their output ends its line unless ``line_end`` says otherwise.
    """
    return ToolResult(call, tool, text + line_end, complete=False, is_error=False)


def append_directly(db: Path, thread: str, observations: list[Observation]) -> None:
    """Write to the server's log file the way another writer would, past the HTTP checks.

    Ids the API now refuses may still be in a log written before, or by a
    process sharing the file: the page must stay sound with them.
    """

    async def append() -> None:
        log = SQLiteLog(db)
        try:
            await log.append(thread, observations)
        finally:
            await log.aclose()

    run_async(append)


def open_page(page: Page, server: ToolviewServer, thread: str) -> list[str]:
    """The thread's page, connected; the URLs it requests from now on."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.goto(f"{server.url}/threads/{thread}")
    expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
    return urls


def settle(publisher: Publisher, page: Page) -> None:
    """Publish a marker call and wait for it: every frame before it has been handled."""
    publisher.publish([ToolCall("marker", "t", {}), ToolResult("marker", "t", "ok", True, False)])
    expect(page.locator("#tv-call-marker")).to_have_attribute("data-state", "done")


def wait_for_text(page: Page, selector: str, want: str) -> None:
    """Until ``selector``'s textContent is exactly ``want`` (no whitespace normalising)."""
    page.wait_for_function(
        "([sel, want]) => { const el = document.querySelector(sel);"
        " return el !== null && el.textContent === want; }",
        arg=[selector, want],
    )


def test_a_dot_dot_call_id_gets_its_own_box_and_never_the_whole_thread(
    server: ToolviewServer, db: Path
) -> None:
    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/scan") as publisher:
            publisher.ensure_thread()
            publisher.publish([ToolCall("good", "scan", {}), partial("good", GOOD)])
            urls = open_page(page, server, "scan")
            good = page.locator("#tv-call-good .tv-live-output")
            expect(good).to_have_text(GOOD)
            append_directly(
                db,
                "scan",
                [
                    ToolCall("..", "scan", {}),
                    partial("..", FORGED),
                    ToolCall(".", "scan", {}),
                    partial(".", FORGED),
                ],
            )
            settle(publisher, page)
            for call in ("..", "."):
                box = page.locator(f"#{call_element_id(call)} .tv-live-output")
                expect(box).to_have_text(FORGED)
            expect(good).to_have_text(GOOD)
        whole = [url for url in urls if url.split("?")[0].endswith("/api/threads/scan/html")]
        assert whole == []

    in_browser(scenario)


def test_a_fragment_that_is_not_the_expected_element_is_ignored(server: ToolviewServer) -> None:
    rogue = [
        # another call's element
        f'<article class="tv-call" id="tv-call-good" data-state="done">{FORGED}</article>',
        # the right element, and another one beside it
        f'<article class="tv-call" id="tv-call-c2">{FORGED}</article>'
        f'<article class="tv-call" id="tv-call-good">{FORGED}</article>',
    ]
    served: list[str] = []

    def scenario(page: Page) -> None:
        def forge(route: Route) -> None:
            body = rogue[len(served) % len(rogue)]
            served.append(route.request.url)
            headers = {"content-type": "text/html", "x-toolview-element": "tv-call-c2"}
            route.fulfill(status=200, headers=headers, body=body)

        with Publisher(f"{server.url}/threads/rogue") as publisher:
            publisher.ensure_thread()
            publisher.publish([ToolCall("good", "scan", {}), partial("good", GOOD)])
            open_page(page, server, "rogue")
            page.route(re.compile(r".*/api/threads/rogue/call.*c2.*"), forge)
            good = page.locator("#tv-call-good .tv-live-output")
            expect(good).to_have_text(GOOD)
            publisher.publish([ToolCall("c2", "scan", {})])
            publisher.publish([partial("c2", "x")])
            settle(publisher, page)
            assert len(served) >= 2, served
            expect(good).to_have_text(GOOD)
            expect(page.get_by_text(FORGED)).to_have_count(0)
            expect(page.locator("article.tv-call")).to_have_count(2)  # good and the marker

    in_browser(scenario)


NAME = "invoice_\u202egnp.exe\u200b\x1b[31m\x00\rX\nY\u2028Z"
HIDDEN = (
    "pay invoice_\u202egnp.exe\u200b\u2028now\x1b[2J\x1b]0;title\x07\x00 a\rb\r\nc\x9b31mred\x1b(B."
)


def corpus() -> str:
    """Every hostile terminal payload (that JSON can carry), one after another."""
    usable = [
        p for p in terminal.PAYLOADS if not re.search("[\ud800-\udfff]", p) and not _redacted(p)
    ]
    text = "\n".join(usable)
    assert len(usable) > 100 and not _redacted(text)
    return text


def _redacted(text: str) -> bool:
    """Whether redaction would change ``text`` (before or after cleaning): not tested here."""
    shown = neutralize_terminal(text)
    return redact(text) != text or redact(shown) != shown


def drawn(text: str) -> str:
    """Running output as the server draws it (``render.clean.shown_output``): the
    colours aside, each line's last frame, every other control neutralized."""
    return clean_output(text).text


def test_running_output_and_the_status_line_are_cleaned_as_the_server_cleans(
    server: ToolviewServer,
) -> None:
    everything = corpus()
    status = f"running {clean_field(NAME, 100)}"

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/clean") as publisher:
            publisher.ensure_thread()
            open_page(page, server, "clean")
            publisher.publish([ToolCall("c1", NAME, {}), partial("c1", HIDDEN, NAME)])
            wait_for_text(page, "#tv-call-c1 .tv-live-output", drawn(HIDDEN + "\n"))
            wait_for_text(page, "#tv-status", status)
            # appended in two pieces, an escape sequence split between them
            publisher.publish(
                [ToolCall("c2", "t", {}), partial("c2", everything[:1000], "t", line_end="")]
            )
            publisher.publish([partial("c2", everything, "t")])
            want = drawn(everything + "\n")
            wait_for_text(page, "#tv-call-c2 .tv-live-output", want)
            shown = page.locator("#tv-call-c1 .tv-live-output").text_content() or ""
            assert "\u202e" not in shown and "exe.png" not in shown
            page.reload()  # the status line the server renders says the same
            wait_for_text(page, "#tv-status", f"{status}, t")

    in_browser(scenario)


def test_the_status_line_the_server_renders_is_cleaned_and_on_one_line() -> None:
    thread = Thread.from_observations([ToolCall("c1", NAME, {}), ToolCall("c2", "t", {})])
    assert status_line(thread) == f"running {clean_field(NAME, 100)}, t"
    assert len(status_line(thread).splitlines()) == 1


@pytest.mark.parametrize("bad", [".", ".."])
def test_ingest_refuses_ids_a_url_would_normalise(server: ToolviewServer, bad: str) -> None:
    api = f"{server.url}/api/threads"
    created = httpx.post(api, json={"id": bad})
    assert created.status_code == 400
    assert "id" in created.json()["error"] and repr(bad) in created.json()["error"]
    assert httpx.post(api, json={"id": "t"}).status_code == 201
    observations: list[dict[str, Any]] = [
        {"kind": "tool-call", "toolCallId": bad, "toolName": "t", "args": {}},
        {
            "kind": "tool-result",
            "toolCallId": bad,
            "toolName": "t",
            "text": "x",
            "complete": False,
            "isError": False,
        },
        {"kind": "tool-refused", "toolCallId": bad, "toolName": "t", "reason": "r"},
    ]
    for observation in observations:
        fine = {**observation, "toolCallId": "ok"}
        sent = httpx.post(f"{api}/t/observations", json=[fine, observation])
        assert sent.status_code == 400, sent.text
        assert sent.json()["error"].startswith("item 2: $[1].toolCallId:"), sent.json()
        lines = httpx.post(
            f"{api}/t/observations",
            content=json.dumps(observation).encode() + b"\n",
            headers={"content-type": "application/x-ndjson"},
        )
        assert lines.status_code == 400
        assert lines.json()["error"].startswith("line 1: $.toolCallId:"), lines.json()
    events = httpx.get(f"{api}/t/events").json()["events"]
    assert events == []  # all or nothing: the good observation beside it was not stored
    lookalike = {**observations[0], "toolCallId": "a..b"}
    assert httpx.post(f"{api}/t/observations", json=[lookalike]).status_code == 200


def test_a_call_fragment_names_its_element_and_needs_an_id(
    server: ToolviewServer, db: Path
) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    append_directly(db, "t", [ToolCall("..", "scan", {}), ToolCall("a/b?c", "scan", {})])
    api = f"{server.url}/api/threads/t"
    for call in ("..", "a/b?c"):
        fragment = httpx.get(f"{api}/call", params={"id": call})
        assert fragment.status_code == 200
        assert fragment.headers["x-toolview-element"] == call_element_id(call)
        assert fragment.text.count("<article") == 1
        assert f'id="{call_element_id(call)}"' in fragment.text
    missing = httpx.get(f"{api}/call")
    assert missing.status_code == 400 and "id" in missing.json()["error"]
    unknown = httpx.get(f"{api}/call", params={"id": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"]
    # the path route, kept for API clients (it cannot carry a "/": servers decode %2F)
    append_directly(db, "t", [ToolCall("plain", "scan", {})])
    by_path = httpx.get(f"{api}/calls/plain/html")
    assert by_path.headers["x-toolview-element"] == call_element_id("plain")
