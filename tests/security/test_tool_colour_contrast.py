"""A tool's colours cannot make its text invisible, in the light scheme or the dark.

A hostile (or careless) tool output can hide text from a reader with
colours alone: the foreground set to the background (``31;41``), inverse
video over a colour as light as the page (``7;97``, ``7`` over white),
near-white text on a white background the tool painted (readable in the
light scheme, where the text is darkened, invisible in the dark, where it is
lightened), the page's text on a basic background, near-black on black.
The call is published to a real ``toolview serve`` and its page opened in a
real Chromium, in each scheme; axe-core's ``color-contrast`` rule (pinned in
tests/node) must find nothing on the tool's output. The contrast function
itself is checked beside it, over every pair a tool can ask for.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from axe import inject_axe
from page_browser import in_browser, run_to_live_page
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import Descriptor, ToolCall, ToolResult
from toolview.remote.client import Publisher
from toolview.render.html.legible import contrast, on_ground
from toolview.render.html.pairs import clashes, ground_value, text_values
from toolview.render.html.palette import style_classes
from toolview.safety.sgr import PLAIN, apply_sgr

CASES = {  # what the tool wrote -> the words it hides
    "\x1b[31;41mred on red\x1b[0m": "red on red",
    "\x1b[38;5;196;48;5;196mexact on exact\x1b[0m": "exact on exact",
    "\x1b[38;2;250;250;250;48;2;255;255;255mnear-white on white\x1b[0m": "near-white on white",
    "\x1b[38;5;255;48;5;231mgrey 255 on 231\x1b[0m": "grey 255 on 231",
    "\x1b[38;5;232;48;5;16mnear-black on black\x1b[0m": "near-black on black",
    "\x1b[7;97minverse bright white\x1b[0m": "inverse bright white",
    "\x1b[7;38;5;231minverse on white\x1b[0m": "inverse on white",
    "\x1b[7;43minverse yellow ground\x1b[0m": "inverse yellow ground",
    "\x1b[47mdefault text on basic white\x1b[0m": "default text on basic white",
    "\x1b[97;107mbright white on bright white\x1b[0m": "bright white on bright white",
    "\x1b[30;40mblack on black\x1b[0m": "black on black",
}
STDOUT = "\n".join(CASES)
_CONTRAST = """async (where) => {
  const result = await axe.run(where, { runOnly: ['color-contrast'] });
  const said = list => list.flatMap(v => v.nodes.map(n => n.target.join(' ')
                                                      + ' :: ' + n.failureSummary));
  // "incomplete": axe could not tell (text the colour of its ground is one such)
  return { violations: said(result.violations), incomplete: said(result.incomplete),
           passes: result.passes.flatMap(v => v.nodes).length };
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield started
    started.kill()


@pytest.mark.browser
def test_axe_finds_no_hidden_tool_text_in_either_scheme(server: ToolviewServer) -> None:
    props = {"command": "paint", "exitCode": 0, "stdout": STDOUT, "stderr": ""}
    with Publisher(f"{server.url}/threads/paint") as publisher:
        publisher.ensure_thread()
        publisher.publish(
            [
                ToolCall("c1", "shell", {"command": "paint"}),
                ToolResult("c1", "shell", STDOUT, True, False, Descriptor("shell", props)),
            ]
        )

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/threads/paint")
        expect(page.locator("#tv-call-c1")).to_have_attribute("data-state", "done")
        for words in CASES.values():
            expect(page.locator("#tv-call-c1 pre.tv-pre")).to_contain_text(words)
        readable_in_both_schemes(page, "#tv-call-c1 pre.tv-pre")

    in_browser(scenario)


def readable_in_both_schemes(page: Page, where: str) -> None:
    """axe's ``color-contrast`` on ``where``, light then dark: every case measured, all read."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        inject_axe(page)
        found = page.evaluate(_CONTRAST, where)
        assert found["violations"] == [], scheme
        assert found["incomplete"] == [], scheme
        assert found["passes"] >= len(CASES), scheme  # each case was measured, and read


@pytest.mark.browser
def test_the_live_output_of_a_running_command_hides_nothing_either(
    server: ToolviewServer, tmp_path: Path
) -> None:
    """The same cases while the command runs: the live page's script draws them (live.js)."""
    go = tmp_path / "go"
    os.mkfifo(go)  # the command prints, then reads here until the page has been checked
    script = "\n".join(
        [
            "import sys",
            f"sys.stdout.write({STDOUT!r} + '\\n')",
            "sys.stdout.flush()",
            f"open({str(go)!r}).read()",
        ]
    )
    httpx.post(f"{server.url}/api/threads", json={"id": "live"}).raise_for_status()
    hold = os.open(go, os.O_RDWR)  # the FIFO's one writer, open before the command starts

    def scenario(page: Page) -> None:
        runner = run_to_live_page(page, server.url, "live", script)
        try:
            live = page.locator("article.tv-call .tv-live-output")
            for words in CASES.values():
                expect(live).to_contain_text(words)
            readable_in_both_schemes(page, "article.tv-call .tv-live-output")
        finally:
            os.close(hold)  # the command's read ends: it exits
            try:
                assert runner.wait(timeout=120) == 0
            finally:
                runner.kill()

    in_browser(scenario)


def test_the_best_text_reads_on_every_ground_a_tool_can_paint() -> None:
    grounds = ["x", *map(str, range(256))]
    for bg in grounds:
        for scheme in (0, 1):
            ground = ground_value(bg, scheme)
            assert contrast(on_ground(ground), ground) >= 4.5, (bg, scheme)


@pytest.mark.parametrize(
    ("sgr", "hidden"),
    [
        ("31;41", True),  # fg = bg
        ("38;5;255;48;5;231", True),  # near-white on white: the dark scheme
        ("7;38;5;231", True),  # inverse: the page's background as text, on white
        ("47", True),  # the page's text on a basic background
        ("38;5;231;48;5;16", False),  # white on black: the tool's pair, kept exact
        ("38;5;16;48;5;231", False),
    ],
)
def test_a_pair_under_the_minimum_is_drawn_with_the_best_text(sgr: str, hidden: bool) -> None:
    classes = style_classes(apply_sgr(sgr, PLAIN)).split()
    assert any(c.startswith("tv-k") for c in classes) is hidden, classes
    if not hidden:
        assert any(c.startswith("tv-e") for c in classes), classes


def test_no_pair_left_exact_is_under_the_minimum_in_either_scheme() -> None:
    for fg in [None, "x", *map(str, range(0, 256, 3))]:
        for bg in ["x", *map(str, range(0, 256, 5))]:
            if clashes(fg, bg):
                continue
            for scheme in (0, 1):
                for text in text_values(fg, scheme):
                    assert contrast(text, ground_value(bg, scheme)) >= 4.5, (fg, bg, scheme)
