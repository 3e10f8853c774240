"""The html surface in real Chromium: hostile corpora stay inert; the example reads well.

Each hostile payload sits in every field of every kind (see ``html_hostile``).
Payloads are batched into a few pages (one browser for the session). Two
layers are tested apart: the standalone page with its CSP (opened from a
``file://`` URL, as a user would), and the bare fragments in a page with NO
policy at all — so escaping alone must hold, not just the CSP behind it.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from html_browser import OpenHtml
from html_hostile import hostile_thread

from corpora import html_injection, terminal
from toolview.cli import main
from toolview.contract import decode_observation
from toolview.contract.thread import Thread
from toolview.render.html import render_page, render_thread_html
from toolview.render.html.document import page_document

pytestmark = pytest.mark.browser

REPO = Path(__file__).parents[3]
BATCH = 55
BATCHES = [
    html_injection.PAYLOADS[start : start + BATCH]
    for start in range(0, len(html_injection.PAYLOADS), BATCH)
]


def _bare(fragment: str) -> str:
    return f"<!DOCTYPE html><html><head><meta charset=utf-8></head><body>{fragment}</body></html>"


@pytest.fixture(scope="module")
def fragments() -> list[str]:
    return [render_thread_html(hostile_thread(batch)) for batch in BATCHES]


@pytest.mark.parametrize("batch", range(len(BATCHES)))
def test_hostile_page_is_inert_under_its_csp(
    batch: int, fragments: list[str], open_html: OpenHtml
) -> None:
    report = open_html(page_document(fragments[batch], title=BATCHES[batch][0]), via="file")
    report.assert_inert()
    assert report.csp_violations == [], "toolview emitted something its own CSP had to block"


@pytest.mark.parametrize("batch", range(len(BATCHES)))
def test_hostile_fragments_are_inert_without_any_csp(
    batch: int, fragments: list[str], open_html: OpenHtml
) -> None:
    open_html(_bare(fragments[batch])).assert_inert()


def test_terminal_corpus_is_inert_and_invisible(open_html: OpenHtml) -> None:
    report = open_html(render_page(hostile_thread(terminal.PAYLOADS)), via="file")
    report.assert_inert()
    assert report.csp_violations == []


def test_example_thread_reads_well(open_html: OpenHtml) -> None:
    lines = (REPO / "examples" / "thread.jsonl").read_bytes().splitlines()
    thread = Thread.from_observations(decode_observation(line) for line in lines if line.strip())
    html = render_page(thread, title="examples/thread.jsonl")
    report = open_html(html, via="file", screenshot="example-thread.png")
    report.assert_inert()
    assert report.csp_violations == []
    assert (REPO / ".tmp" / "screenshots" / "example-thread.png").stat().st_size > 10_000
    statuses = {value for _, value in report.dom["statuses"]}
    assert {"Tool call succeeded", "Tool call failed", "Tool call running"} <= statuses
    assert report.dom["liveRegions"] == 0, "a badge announces nothing: a page has one live region"
    assert len(report.dom["permalinks"]) == 15
    assert report.dom["images"] == 1, "the valid png is shown"
    assert report.dom["details"] >= 1, "the truncation disclosure (the two cuts in one)"
    assert report.dom["links"] == ["https://example.com"]
    (receipt,) = report.dom["receipts"]
    assert receipt["label"].startswith("Tool call denied: bash refused by policy:")
    assert receipt["text"].startswith("⊘ bash refused by policy: deleting files needs approval")
    assert receipt["lines"] == 1, "a receipt is one line on a 1000px page"
    summary = report.dom["summary"]
    assert summary["text"].startswith("15 calls: 11 succeeded, 1 failed")
    assert "1 refused" in summary["text"] and summary["last"]


def test_a_live_page_appending_calls_keeps_the_summary_last(open_html: OpenHtml) -> None:
    """The live page appends call fragments to the thread: CSS keeps the footer below them."""
    lines = (REPO / "examples" / "thread.jsonl").read_bytes().splitlines()
    thread = Thread.from_observations(decode_observation(line) for line in lines if line.strip())
    fragment = render_thread_html(thread)
    appended = fragment.replace(
        "</footer></div>",
        '</footer><article class="tv-call" id="tv-call-late"><p>late call</p></article></div>',
    )
    assert appended != fragment
    report = open_html(page_document(appended, title="live"), via="file")
    assert report.dom["summary"]["last"]


def test_the_cli_page_for_the_hostile_example_is_inert(open_html: OpenHtml) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", "--surface", "html", str(REPO / "examples" / "hostile.jsonl")]) == 0
    report = open_html(out.getvalue(), via="file")
    report.assert_inert()
    assert report.csp_violations == []
