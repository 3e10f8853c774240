"""MCP Apps drawn in real Chromium: the live page hosts them, the saved page keeps them inert.

The calls are real (``toolview mcp call`` against ``tests/hosts/mcp/app_server.py``),
served by a real ``toolview serve --load``. The friendly app writes what the
``ui/*`` bridge gave it into its own page; the hostile app tries the parent,
top navigation, a popup, cookies, storage and the network, and writes down
what each got — read from the frame, and the parent checked untouched.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from page_browser import in_browser
from playwright.sync_api import FrameLocator, Page, expect
from toolview_servers import ToolviewServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hosts" / "mcp"))
from app_server import record

pytestmark = pytest.mark.browser

CALLS = (("weather", '{"city": "Oslo"}'), ("hostile", '{"target": "you"}'), ("plain", "{}"))
REFUSED = "toolview replays this call: the app's own tool calls are refused"
ESCAPES = ("parentDocument", "parentWrite", "cookie", "localStorage", "popup", "topLocation")


def _serve(tmp_path: Path, calls: Path) -> ToolviewServer:
    """``toolview serve`` of the recorded calls, on a log of the test's own."""
    return ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path / "log.db"), "--load", str(calls)]
    )


def _frame(page: Page, name: str) -> FrameLocator:
    return page.frame_locator(f"iframe[title='MCP App ui://{name}/app.html']")


def _hostile_report(page: Page) -> dict[str, object]:
    hostile = _frame(page, "hostile")
    expect(hostile.locator("body")).to_have_attribute("data-done", "1")
    report = hostile.locator("#report")
    # the policy's own reports arrive as events: wait until both network tries are named
    expect(report).to_contain_text("connect-src")
    expect(report).to_contain_text("img-src")
    parsed: dict[str, object] = json.loads(report.text_content() or "{}")
    return parsed


def test_the_live_page_hosts_the_app_and_refuses_every_way_out(tmp_path: Path) -> None:
    calls = record(tmp_path / "apps.jsonl", *CALLS)
    with _serve(tmp_path, calls) as server:
        url = f"{server.url}/threads/apps"

        def scenario(page: Page) -> None:
            page.goto(url)
            page.evaluate("document.cookie = 'mine=1'; localStorage.setItem('mine', '1')")
            weather = _frame(page, "weather")
            expect(weather.locator("#input")).to_have_text('{"city":"Oslo"}')
            expect(weather.locator("#result")).to_have_text("Sunny in Oslo, 21 °C")
            expect(weather.locator("#host")).to_have_text("toolview")
            expect(weather.locator("#call")).to_have_text(f"refused: {REFUSED}")
            expect(page.locator(".tv-app-note")).to_have_text(REFUSED)  # said on the page
            report = _hostile_report(page)
            assert {name: str(report[name]).split(":")[0] for name in ESCAPES} == dict.fromkeys(
                ESCAPES, "refused"
            ), report
            assert report["fetch"] == "refused: TypeError" and report["image"] == "refused: error"
            assert {"connect-src", "img-src"} <= set(report["violated"])  # type: ignore[arg-type]
            # the parent is untouched: its page, address, cookie, storage; no popup opened
            assert page.url == url and len(page.context.pages) == 1
            assert page.evaluate("document.cookie") == "mine=1"
            assert page.evaluate("JSON.stringify(Object.keys(localStorage))") == '["mine"]'
            expect(page.locator("h1")).not_to_have_text("owned")
            assert page.locator("article").count() == 3

        in_browser(scenario)


# live.js's redraw of a call (its fragment in place of the drawn one), then the page's main
# thread held so the new frame's srcdoc navigation is still in flight when mcp-app.js adopts
# it: the ordering a loaded machine gave the page's first drawing about half the time
_REDRAW_BUSY = """async (callId) => {
  const answer = await fetch(`/api/threads/apps/call?id=${encodeURIComponent(callId)}`);
  const template = document.createElement("template");
  template.innerHTML = await answer.text();
  const fresh = template.content.querySelector("article");
  document.getElementById(fresh.id).replaceWith(fresh);
  const until = performance.now() + 300;
  while (performance.now() < until) {}
}"""


def test_a_frame_adopted_while_its_srcdoc_still_loads_hosts_the_app(tmp_path: Path) -> None:
    calls = record(tmp_path / "apps.jsonl", CALLS[0])
    call_id = json.loads(calls.read_text().splitlines()[0])["toolCallId"]
    with _serve(tmp_path, calls) as server:

        def scenario(page: Page) -> None:
            page.goto(f"{server.url}/threads/apps")
            weather = _frame(page, "weather")
            for _ in range(3):
                page.evaluate(_REDRAW_BUSY, call_id)
                expect(page.locator("iframe.tv-app[srcdoc]")).to_have_count(0)
                expect(weather.locator("#input")).to_have_text('{"city":"Oslo"}')
                expect(weather.locator("#host")).to_have_text("toolview")

        in_browser(scenario)


def test_the_app_route_serves_it_under_its_own_sandboxed_policy(tmp_path: Path) -> None:
    calls = record(tmp_path / "apps.jsonl", CALLS[0], CALLS[2])
    with _serve(tmp_path, calls) as server:
        ids = [json.loads(line)["toolCallId"] for line in calls.read_text().splitlines()]
        base = f"{server.url}/api/threads/apps/calls"
        with urllib.request.urlopen(f"{base}/{ids[0]}/app") as answer:
            policy = answer.headers["content-security-policy"]
            assert answer.headers["x-frame-options"] == "SAMEORIGIN"
            assert "Weather app" in answer.read().decode()
        assert policy.startswith("sandbox allow-scripts; default-src 'none'; ")
        assert "connect-src https://api.example.com;" in policy
        assert policy.endswith("frame-ancestors 'self'") and "evil" not in policy
        with urllib.request.urlopen(f"{server.url}/threads/apps") as page:
            assert "frame-src 'self'" in page.headers["content-security-policy"]
            assert page.headers["x-frame-options"] == "DENY"
        for missing in (f"{base}/{ids[2]}/app", f"{base}/nope/app"):  # plain: no app
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(missing)
            assert refused.value.code == 404
            assert "sandbox" not in refused.value.headers["content-security-policy"]


def test_the_saved_page_draws_the_app_sandboxed_and_runs_none_of_it(tmp_path: Path) -> None:
    calls = record(tmp_path / "apps.jsonl", *CALLS[:2])
    saved = tmp_path / "page.html"
    command = [sys.executable, "-m", "toolview", "show", "--surface", "html", str(calls)]
    saved.write_text(subprocess.run(command, capture_output=True, text=True, check=True).stdout)

    def scenario(page: Page) -> None:
        page.goto(saved.as_uri())
        frames = page.locator("iframe.tv-app")
        expect(frames).to_have_count(2)
        assert {frames.nth(i).get_attribute("sandbox") for i in range(2)} == {"allow-scripts"}
        weather = _frame(page, "weather")
        expect(weather.locator("h1")).to_have_text("Weather app")  # its markup is drawn
        expect(weather.locator("#input")).to_have_text("none")  # its script never ran
        expect(_frame(page, "hostile").locator("#report")).to_have_text("")
        assert len(page.context.pages) == 1 and page.url == saved.as_uri()

    in_browser(scenario)
