"""The collapsible calls in real Chromium: open/closed rules, keyboard, filters with no script,
permalinks clear of a sticky bar, in light and dark, on a desktop and a 390 px phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolview.contract import ToolCall, ToolRefused, ToolResult
from toolview.contract.thread import Thread
from toolview.render.html import FRAGMENT_CSS, render_page, render_thread_html

pytestmark = pytest.mark.browser

SCHEMES = ["light", "dark"]
WIDTHS = {"desktop": 1280, "phone": 390}
TIMEOUT = 60_000  # ms: a shared machine; nothing here asserts on speed


def thread(successes: int) -> Thread:
    """A failure, a running call, a refusal, then ``successes`` successes."""
    observations: list[Any] = [
        ToolCall("bad", "bash", {"command": "make test"}),
        ToolResult("bad", "bash", "1 failed", True, True),
        ToolCall("no", "bash", {"command": "rm -rf /"}),
        ToolRefused("no", "bash", "not allowed", guard="policy"),
    ]
    for n in range(successes):
        observations.append(ToolCall(f"ok{n}", "read", {"path": f"src/f{n}.py"}))
        observations.append(ToolResult(f"ok{n}", "read", f"line {n}\n" * 30, True, False))
    observations.append(ToolCall("run", "bash", {"command": "sleep 100"}))
    return Thread.from_observations(observations)


@pytest.fixture(params=[(s, w) for s in SCHEMES for w in WIDTHS], ids=lambda p: f"{p[0]}-{p[1]}")
def page_of(browser: Any, request: Any, tmp_path: Path) -> Iterator[Any]:
    """Open markup from a ``file://`` URL, JavaScript off, in the scheme and width asked."""
    scheme, width = request.param
    context = browser.new_context(
        java_script_enabled=False,
        color_scheme=scheme,
        viewport={"width": WIDTHS[width], "height": 800},
    )
    context.set_default_timeout(TIMEOUT)

    def open_(markup: str, fragment: str = "") -> Any:
        path = tmp_path / "page.html"
        path.write_text(markup, encoding="utf-8")
        page = context.new_page()
        page.goto(path.as_uri() + fragment)
        return page

    yield open_
    context.close()


def open_ids(page: Any) -> list[str]:
    """The ids of the calls whose ``<details>`` is open (read with JavaScript off: locators)."""
    calls = page.locator("article.tv-call:has(> details[open])")
    return [calls.nth(i).get_attribute("id") for i in range(calls.count())]


def test_a_short_thread_opens_everything(page_of: Any) -> None:
    page = page_of(render_page(thread(3)))
    assert open_ids(page) == [
        "tv-call-bad",
        "tv-call-ok0",
        "tv-call-ok1",
        "tv-call-ok2",
        "tv-call-run",
    ]
    assert page.locator("#tv-call-ok0 .tv-body").is_visible()


def test_a_long_thread_collapses_its_successes_only(page_of: Any) -> None:
    page = page_of(render_page(thread(60)))
    assert open_ids(page) == ["tv-call-bad", "tv-call-run"]
    assert page.locator("#tv-call-no .tv-receipt").is_visible()  # the refusal: its one line
    assert not page.locator("#tv-call-ok5 .tv-body").is_visible()
    gist = page.locator("#tv-call-ok5 .tv-gist")
    assert gist.is_visible() and gist.inner_text() == "src/f5.py"
    # one line: the summary is no taller than two lines of text at any width
    box = page.locator("#tv-call-ok5 .tv-call-summary").bounding_box()
    assert box is not None and box["height"] < 80


def test_the_keyboard_reaches_every_summary_and_toggles_it(page_of: Any) -> None:
    page = page_of(render_page(thread(60)))
    summary = page.locator("#tv-call-ok0 > details > summary")
    for _ in range(200):  # Tab through chips, summaries and permalinks until it is reached
        page.keyboard.press("Tab")
        if summary.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("ok0's summary was never reached with Tab")
    outline = summary.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid", "a visible focus ring"
    page.keyboard.press("Enter")
    assert page.locator("#tv-call-ok0 > details[open]").count() == 1
    assert page.locator("#tv-call-ok0 .tv-body").is_visible()
    page.keyboard.press("Space")
    assert page.locator("#tv-call-ok0 > details[open]").count() == 0


def test_the_status_filters_work_with_no_script(page_of: Any) -> None:
    page = page_of(render_page(thread(3)))
    assert page.locator("#tv-call-ok1").is_visible()
    page.locator("label[for=tv-show-success]").click()
    assert not page.locator("#tv-show-success").is_checked()
    assert not page.locator("#tv-call-ok1").is_visible()
    assert page.locator("#tv-call-bad").is_visible() and page.locator("#tv-call-run").is_visible()
    page.locator("label[for=tv-show-failed]").click()
    assert not page.locator("#tv-call-bad").is_visible()
    page.locator("label[for=tv-show-success]").click()
    assert page.locator("#tv-call-ok1").is_visible()
    page.locator("label[for=tv-show-denied]").click()
    assert not page.locator("#tv-call-no").is_visible()


def test_nothing_overflows_the_page(page_of: Any) -> None:
    page = page_of(render_page(thread(3)))
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]


def test_a_permalink_target_is_clear_of_a_sticky_bar(page_of: Any) -> None:
    """The live page's toolbar is sticky (at most 4.5rem tall here): a jump to a call lands
    below it, not under it. A bare page with no policy holds the sheet and the bar."""
    bar = (
        "<style>.bar { position: sticky; top: 0; height: 64px; z-index: 1; background: #888; }"
        f"{FRAGMENT_CSS}</style>"
    )
    markup = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8">{bar}</head>'
        f'<body><div class="bar">toolbar</div>{render_thread_html(thread(60))}</body></html>'
    )
    page = page_of(markup, "#tv-call-ok40")
    bar_bottom = page.locator(".bar").bounding_box()["y"] + 64
    target = page.locator("#tv-call-ok40").bounding_box()
    assert target is not None and target["y"] >= bar_bottom - 1
    assert target["y"] < page.viewport_size["height"]  # and it was scrolled to
    permalink = page.locator("#tv-call-ok40 > a.tv-permalink")
    assert permalink.get_attribute("href") == "#tv-call-ok40" and permalink.is_visible()
