"""The per-call "⋯" action menu (static/menu.js) in real Chromium: keys, one open, axe-core.

Every action a card had as a button is an item of one menu (role=menu /
menuitem): Enter, Space and the arrows open it, arrows, Home and End move,
Escape closes it and gives the focus back to its button, and opening one
closes another. Served under the page's CSP (no inline script).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Locator, Page, expect
from stored_sessions import CALL, NAME, REAL, SECRETS, SESSION, write_session
from toolview_servers import ToolviewServer
from viewer_page import DESKTOP, PHONE, open_viewer
from viewer_threads import EXAMPLE
from watch_serving import until

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]


def _items(call: Locator) -> list[str]:
    """The items of the call's own menu, open or not (a closed one is not in the a11y tree)."""
    items = call.locator(".tv-menu").first.locator("[role=menuitem]")
    return [str(t) for t in items.all_text_contents()]


def test_the_keyboard_opens_moves_and_closes_the_menu(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        open_viewer(page, f"{server.url}/threads/thread")
        call = page.locator("#tv-call-c1")
        opener = call.get_by_role("button", name="Call actions")
        menu = call.get_by_role("menu", name="Call actions")
        expect(opener).to_have_attribute("aria-haspopup", "menu")
        expect(menu).to_be_hidden()
        items = _items(call)
        assert items == ["Copy command", "Copy output", "Copy link", "Raw observations"]
        opener.focus()
        page.keyboard.press("Enter")
        expect(menu).to_be_visible()
        expect(opener).to_have_attribute("aria-expanded", "true")
        expect(call.get_by_role("menuitem", name=items[0])).to_be_focused()
        page.keyboard.press("ArrowDown")
        expect(call.get_by_role("menuitem", name=items[1])).to_be_focused()
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")  # wraps round to the last
        expect(call.get_by_role("menuitem", name=items[-1])).to_be_focused()
        page.keyboard.press("Home")
        expect(call.get_by_role("menuitem", name=items[0])).to_be_focused()
        page.keyboard.press("End")
        expect(call.get_by_role("menuitem", name=items[-1])).to_be_focused()
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        expect(opener).to_be_focused()
        expect(opener).to_have_attribute("aria-expanded", "false")
        page.keyboard.press("ArrowUp")  # opens on the last item
        expect(call.get_by_role("menuitem", name=items[-1])).to_be_focused()
        page.keyboard.press("Escape")
        page.keyboard.press(" ")
        expect(call.get_by_role("menuitem", name=items[0])).to_be_focused()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")  # "Copy link", chosen by key
        expect(page.locator("#tv-status")).to_have_text("Copied link")
        assert page.evaluate("navigator.clipboard.readText()").endswith("#tv-call-c1")
        expect(menu).to_be_hidden()
        expect(opener).to_be_focused()
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")  # leaving the menu closes it
        expect(menu).to_be_hidden()

    in_browser(scenario)


def test_one_menu_is_open_at_a_time(served: Serve, tmp_path: Path) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))

    def scenario(page: Page) -> None:
        open_viewer(page, f"{server.url}/threads/thread", size=PHONE)
        first, second = page.locator("#tv-call-c1"), page.locator("#tv-call-c5")
        first.get_by_role("button", name="Call actions").click()
        expect(first.get_by_role("menu")).to_be_visible()
        second.get_by_role("button", name="Call actions").click()
        expect(second.get_by_role("menu")).to_be_visible()
        expect(first.get_by_role("menu")).to_be_hidden()
        expect(first.get_by_role("button", name="Call actions")).to_have_attribute(
            "aria-expanded", "false"
        )
        page.locator("h1").first.click()  # a click elsewhere closes it
        expect(second.get_by_role("menu")).to_be_hidden()
        assert page.locator(".tv-menu:not([hidden])").count() == 0
        # the card gains no buttons of its own beside the menu's: each action is an item
        tools = first.locator(".tv-call-tools").first
        expect(tools.locator("button:not([role=menuitem])")).to_have_count(1)

    in_browser(scenario)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_open_menu_is_axe_clean(served: Serve, tmp_path: Path, scheme: str) -> None:
    server = served("--db", str(tmp_path / "log.db"), "--load", str(EXAMPLE))
    found: dict[str, object] = {}

    def scenario(page: Page) -> None:
        for name, size in (("desktop", DESKTOP), ("390px", PHONE)):
            open_viewer(page, f"{server.url}/threads/thread", scheme=scheme, size=size)
            page.locator("#tv-call-c1").get_by_role("button", name="Call actions").click()
            expect(page.locator("#tv-call-c1").get_by_role("menu")).to_be_visible()
            found[name] = list(axe_violations(page))

    in_browser(scenario)
    assert found == {"desktop": [], "390px": []}


def test_load_full_output_from_the_log_or_from_the_stored_file(
    served: Serve, tmp_path: Path
) -> None:
    """A stored output's card says its path and size; the menu loads it whole, redacted."""
    project = tmp_path / "projects" / "-tmp-workspace"
    here, gone = SESSION, "5e551011-0000-4000-8000-0000000000b1"
    write_session(project, here, None)
    write_session(project, gone, None)
    original = (REAL / SESSION / "tool-results" / NAME).read_text()
    (project / here / "tool-results" / NAME).write_text(original)  # read into the log
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(tmp_path / "projects"))
    api = f"{server.url}/api/threads/claude-{{}}/calls/{CALL}/output?limit=1000000"
    for session in (here, gone):
        until(lambda s=session: httpx.get(api.format(s), timeout=30).status_code == 200)
    logged = httpx.get(api.format(here), timeout=30).json()["text"]
    (project / gone / "tool-results" / NAME).write_text(original)  # there only after the read

    def scenario(page: Page) -> None:
        for session, stored in ((here, "whole"), (gone, "preview")):
            open_viewer(page, f"{server.url}/threads/claude-{session}")
            call = page.locator("#tv-call-toolu_5f_11big")
            expect(call).to_have_attribute("data-stored", stored)
            expect(call.locator(".tv-note")).to_contain_text("tool-results/b9hv5pc2u.txt")
            expect(call.locator(".tv-note")).to_contain_text("(35,109 bytes)")
            call.get_by_role("button", name="Call actions").click()
            call.get_by_role("menuitem", name="Load full output").click()
            expect(page.locator("#tv-status")).to_contain_text("Loaded the full output")
            region = call.get_by_role("region", name="Full output")
            expect(region).to_be_focused()
            text = region.text_content() or ""
            assert not [secret for secret in SECRETS if secret in text]
            assert original.splitlines()[0] in text
            if stored == "whole":
                assert text == logged  # the log's, not a file read
            else:
                assert len(text) >= len(original) - 200  # the file's, not the preview's 2 KB

    in_browser(scenario)
