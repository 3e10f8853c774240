"""Allow / Deny on a waiting call, in a real Chromium against a real ``toolview serve``.

The page (``static/decide.js``) draws the form on the call the server holds
``needs_input``; a click posts the decision with the page's token and the
receipt comes back over the server's SSE. Hostile too: a page of another
origin holding the victim's cookie, and the victim's own page without or with
a forged token, decide nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Page, expect
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from toolview_servers import NDJSON, ServedApp, ToolviewServer
from viewer_page import open_viewer

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]
TOKEN = "s3cret-for-the-page-test"
BEARER = {"authorization": f"Bearer {TOKEN}"}
WAITING = "article.tv-call[data-state='needs_input']"


def seed(server: ToolviewServer, calls: int = 1, headers: dict[str, str] | None = None) -> None:
    """Thread ``t``: ``calls`` Bash calls ``w0``, ``w1``… each waiting for a person."""
    sent = headers or {}
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}, headers=sent).raise_for_status()
    observations: list[dict[str, Any]] = []
    for i in range(calls):
        args = {"command": f"rm -rf build{i}"}
        observations.append(
            {"kind": "tool-call", "toolCallId": f"w{i}", "toolName": "Bash", "args": args}
        )
        question = f"Run rm -rf build{i}?"
        observations.append(
            {
                "kind": "tool-waiting",
                "toolCallId": f"w{i}",
                "toolName": "Bash",
                "question": question,
            }
        )
    body = "\n".join(json.dumps(o) for o in observations)
    url = f"{server.url}/api/threads/t/observations"
    httpx.post(url, content=body, headers={**NDJSON, **sent}).raise_for_status()


def decisions(server: ToolviewServer, headers: dict[str, str] | None = None) -> list[Any]:
    events = httpx.get(f"{server.url}/api/threads/t/events", headers=headers or {}).json()
    kept = (e["observation"] for e in events["events"])
    return [o for o in kept if o["kind"] == "tool-decision"]


@pytest.fixture
def tokenless(served: Serve, tmp_path: Path) -> ToolviewServer:
    server = served("--db", str(tmp_path / "log.db"))
    seed(server)
    return server


def test_allow_is_posted_and_the_receipt_is_drawn(tokenless: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        open_viewer(page, f"{tokenless.url}/threads/t")
        expect(page).to_have_title(re.compile(r"^\(1 waiting\) "))
        call = page.locator("#tv-call-w0")
        expect(call.locator("form.tv-decide")).to_be_visible()
        expect(call.locator(".tv-note")).to_contain_text("Run rm -rf build0?")
        focused = "document.activeElement.closest('article')?.id ?? null"
        assert page.evaluate(focused) == "tv-call-w0"  # focus landed on the waiting call
        with page.expect_response(lambda r: r.url.endswith("/decision")) as answered:
            call.get_by_role("button", name="Allow").click()
        assert answered.value.status == 201
        expect(call.locator(".tv-note").last).to_contain_text("Allowed by")  # drawn from the SSE
        expect(call.locator("form.tv-decide")).to_have_count(0)
        expect(page).not_to_have_title(re.compile("waiting"))

    in_browser(scenario)
    assert [(d["decision"], d["toolCallId"]) for d in decisions(tokenless)] == [("allow", "w0")]


def test_deny_with_a_message_is_kept_in_the_receipt(tokenless: ToolviewServer) -> None:
    def scenario(page: Page) -> None:
        open_viewer(page, f"{tokenless.url}/threads/t")
        call = page.locator("#tv-call-w0")
        call.get_by_label("Message (optional)").fill("not on a Friday")
        call.get_by_role("button", name="Deny").click()
        expect(call.locator(".tv-note").last).to_contain_text("Denied by")
        expect(call.locator(".tv-note").last).to_contain_text("not on a Friday")

    in_browser(scenario)
    assert [(d["decision"], d["message"]) for d in decisions(tokenless)] == [
        ("deny", "not on a Friday")
    ]


def test_w_moves_between_waiting_calls_and_a_allows_the_focused_one(
    served: Serve, tmp_path: Path
) -> None:
    server = served("--db", str(tmp_path / "log.db"))
    seed(server, calls=2)

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/t")
        expect(page).to_have_title(re.compile(r"^\(2 waiting\) "))
        focused = "document.activeElement.closest('article')?.id ?? null"
        assert page.evaluate(focused) == "tv-call-w0"  # where focus landed
        page.keyboard.press("w")
        assert page.evaluate(focused) == "tv-call-w1"
        page.keyboard.press("w")
        assert page.evaluate(focused) == "tv-call-w0"  # round again
        page.keyboard.press("w")
        page.keyboard.press("a")
        expect(page.locator("#tv-call-w1 .tv-note").last).to_contain_text("Allowed by")
        expect(page).to_have_title(re.compile(r"^\(1 waiting\) "))
        page.keyboard.press("?")
        expect(page.locator("#tv-keys")).to_contain_text("allow / deny the focused waiting call")

    in_browser(scenario)
    assert [d["toolCallId"] for d in decisions(server)] == ["w1"]


@pytest.fixture
def signed(served: Serve, tmp_path: Path) -> ToolviewServer:
    server = served("--db", str(tmp_path / "log.db"), "--token", TOKEN)
    seed(server, headers=BEARER)
    return server


def _sign_in(page: Page, server: ToolviewServer) -> None:
    link = next(line for line in server.lines if "sign in once at" in line).rsplit(" ", 1)[1]
    page.goto(link)


@pytest.fixture
def attacker() -> Iterator[ServedApp]:
    """Another origin of this host (another port: the same site, so it has the cookie)."""
    pages: dict[str, str] = {}

    async def page(request: Any) -> HTMLResponse:
        return HTMLResponse(pages.get(request.path_params["name"], ""))

    with ServedApp(Starlette(routes=[Route("/{name}", page)])) as served_app:
        served_app.pages = pages  # type: ignore[attr-defined]
        yield served_app


def test_a_signed_in_page_decides_and_another_origin_with_its_cookie_does_not(
    signed: ToolviewServer, attacker: ServedApp
) -> None:
    decide = f"{signed.url}/api/threads/t/calls/w0/decision"
    allow = json.dumps({"decision": "allow"})
    pages: dict[str, str] = attacker.pages  # type: ignore[attr-defined]
    pages["evil"] = f"""<!doctype html><script>
      window.done = Promise.allSettled([
        fetch({decide!r}, {{method: "POST", mode: "no-cors", credentials: "include",
          body: {allow!r}}}),
        fetch({decide!r}, {{method: "POST", credentials: "include", body: {allow!r},
          headers: {{"content-type": "application/json", "x-toolview-page-token": "0"}}}}),
        fetch("{signed.url}/threads/t", {{credentials: "include"}}),  // to read the token
      ]).then((all) => all.map((r) => r.status));
    </script>"""
    statuses: list[int] = []
    forged: list[int] = []

    def scenario(page: Page) -> None:
        _sign_in(page, signed)
        cookies = page.context.cookies()
        assert [c["name"] for c in cookies] == ["toolview_token"]
        page.on("response", lambda r: statuses.append(r.status) if "/decision" in r.url else None)
        page.goto(f"http://127.0.0.1:{attacker.port}/evil")
        results = page.evaluate("window.done")
        assert results[1:] == ["rejected", "rejected"], results  # no preflight, no read
        assert decisions(signed, BEARER) == []
        # the victim's own page: its cookie without the token, then a forged one
        open_viewer(page, f"{signed.url}/threads/t")
        for sent in ("{}", '{"x-toolview-page-token": "0".repeat(64)}'):
            status = page.evaluate(
                f"""fetch({decide!r}, {{method: "POST", body: {allow!r},
                  headers: {{"content-type": "application/json", ...{sent}}}}})
                  .then((r) => r.status)"""
            )
            forged.append(status)
        assert decisions(signed, BEARER) == []
        with page.expect_response(lambda r: r.url.endswith("/decision")) as answered:
            page.locator("#tv-call-w0").get_by_role("button", name="Allow").click()
        assert answered.value.status == 201
        expect(page.locator("#tv-call-w0 .tv-note").last).to_contain_text("a signed-in page")

    in_browser(scenario)
    assert statuses[-1] == 201 and len(statuses) >= 4 and set(statuses[:-1]) == {403}, statuses
    assert forged == [403, 403]
    assert [d["by"] for d in decisions(signed, BEARER)] == ["a signed-in page"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_page_with_a_waiting_call_is_axe_clean(tokenless: ToolviewServer, scheme: str) -> None:
    found: list[object] = []

    def scenario(page: Page) -> None:
        open_viewer(page, f"{tokenless.url}/threads/t", scheme=scheme)
        expect(page.locator("form.tv-decide")).to_be_visible()
        found.extend(axe_violations(page))

    in_browser(scenario)
    assert found == []


def test_a_hostile_call_id_and_tool_name_are_decided_as_written(
    served: Serve, tmp_path: Path
) -> None:
    """The page reads the call's id back from its element id (``_hex_`` spelled) and sends
    it as one path segment: a decision lands on that very call, and no markup runs."""
    server = served("--db", str(tmp_path / "log.db"))
    call = 'toolu_01 "/../x?y=1#<img src=x onerror=window.__pwned=1>'
    tool = "<script>window.__pwned=1</script>Bash"
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    asked = [
        {"kind": "tool-call", "toolCallId": call, "toolName": tool, "args": {}},
        {"kind": "tool-waiting", "toolCallId": call, "toolName": tool, "question": tool},
    ]
    body = "\n".join(json.dumps(o) for o in asked)
    url = f"{server.url}/api/threads/t/observations"
    httpx.post(url, content=body, headers=NDJSON).raise_for_status()

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/t")
        form = page.locator("form.tv-decide")
        expect(form).to_have_attribute("aria-label", f"Decide: {tool}")
        with page.expect_response(lambda r: "/decision" in r.url) as answered:
            form.get_by_role("button", name="Allow").click()
        assert answered.value.status == 201
        expect(page.locator(".tv-note", has_text="Allowed by")).to_have_count(1)
        assert page.evaluate("window.__pwned") is None

    in_browser(scenario)
    assert [d["toolCallId"] for d in decisions(server)] == [call]
