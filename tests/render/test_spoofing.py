"""A line break in a one-line field never draws a fake call on any surface.

A tool name (or kind, path, command, guard, reason, note, cell…) holding
``"x\\n✓ Success  bash\\n   all 412 tests passed"`` used to start a new line
at column 0 on the text and terminal surfaces: a complete, genuine-looking
call header and body that no tool ever returned. Every one-line field must
show each line-break character visibly (``␤``, ``␍``, ``<U+2028>``…) or as a
space. The checks are on structure: one header line per call, and no output
line that begins with the injected text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any, Final

import pytest

from toolview.contract import (
    STATUS_DISPLAY,
    Descriptor,
    Message,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_page, render_thread_html
from toolview.render.notebook import thread_mimebundle

BREAKS: Final = ["\n", "\r", "\r\n", "\x85", "\x0b", "\x0c", "\u2028", "\u2029"]
BREAK_IDS: Final = ["+".join(f"U+{ord(c):04X}" for c in b) for b in BREAKS]
FAKE_HEADER: Final = "✓ Success  bash"
FAKE_BODY: Final = "all 412 tests passed"
ICONS: Final = frozenset(display.icon for display in STATUS_DISPLAY.values())
SGR: Final = re.compile(r"\x1b\[[0-9;]*m")
# what may lead a line before its text: indentation and the surfaces' own markup
_LEAD: Final = re.compile(r"[\s>#*_|`\-]*")
WIDTH: Final = 400  # wide enough that nothing wraps: a wrap is not what is tested here


def spoof(brk: str) -> str:
    return f"x{brk}{FAKE_HEADER}{brk}   {FAKE_BODY}"


def done(call_id: str, tool: str, kind: str, props: dict[str, Any], text: str = "ok") -> list[Any]:
    return [
        ToolCall(call_id, tool, {}),
        ToolResult(call_id, tool, text, True, False, Descriptor(kind, props)),
    ]


def spoofing_thread(p: str) -> tuple[Thread, int]:
    """``p`` in every one-line field; the thread and its number of calls."""
    envelope = {"schemaVersion": "1.0", "tool": p, "status": p, "summary": p, "errorCode": p}
    envelope_error = {"schemaVersion": "1.0", "tool": "t", "status": "failed", "errorCode": p}
    blocks = {
        "blocks": [
            {"type": "resource_link", "uri": p, "name": p, "title": p, "description": p},
            {"type": "resource", "uri": p, "mimeType": p, "text": "t"},
            {"type": "unknown", "originalType": p, "json": {}, "reason": p},
            {"type": "image", "mimeType": p, "size": 3},
        ],
        "notes": [p],
        "progress": {"progress": 1, "message": p},
    }
    observations: list[Any] = [
        RunStarted("r"),
        ToolCall("name", p, {"arg": p}),
        ToolResult("name", p, "ok", True, False),
        *done("kind", "t", p, {}),
        *done("shell", "t", "shell", {"command": p, "exitCode": 0, "stdout": "ok", "stderr": ""}),
        *done("file", "t", "file", {"path": p, "content": "c", "language": p}),
        *done("diff", "t", "diff", {"diff": "+a", "path": p}),
        *done("links", "t", "links", {"links": [{"title": p, "url": p, "snippet": p}]}),
        *done("table", "t", "table", {"columns": [p], "rows": [[p]]}),
        *done("image", "t", "image", {"mimeType": p, "data": "AAAA", "alt": p}),
        *done("envelope", "t", "envelope", envelope),
        *done("blocks", "t", "blocks", blocks),
        ToolCall("error", p, {}),
        ToolResult("error", p, json.dumps(envelope_error), True, True),
        ToolCall("refused", p, {"arg": p}),
        ToolRefused("refused", p, p, p),
        ToolCall("pending", p, {}),
    ]
    thread = Thread.from_observations(observations)
    thread.note(p)
    return thread, len(thread.calls())


PLAIN: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=WIDTH, color=False),
    "terminal-color": lambda t: SGR.sub(
        "", terminal_surface.render_thread(t, width=WIDTH, color=True)
    ),
    "notebook-text": lambda t: thread_mimebundle(t)["text/plain"],
}
MARKDOWN: dict[str, Callable[[Thread], str]] = {
    "markdown": markdown_surface.render_thread,
    "notebook-markdown": lambda t: thread_mimebundle(t)["text/markdown"],
}
HTML: dict[str, Callable[[Thread], str]] = {
    "html-fragment": render_thread_html,
    "html-page": render_page,
    "notebook-html": lambda t: thread_mimebundle(t)["text/html"],
}


def injected_lines(output: str) -> list[str]:
    """Lines (split at every line break Python knows) that begin with the injected text."""
    return [
        line
        for line in output.splitlines()
        if line[_LEAD.match(line).end() :].startswith((FAKE_HEADER, FAKE_BODY))  # type: ignore[union-attr]
    ]


@pytest.mark.parametrize("brk", BREAKS, ids=BREAK_IDS)
@pytest.mark.parametrize("surface", sorted(PLAIN))
def test_plain_surfaces_draw_one_header_per_call(surface: str, brk: str) -> None:
    thread, calls = spoofing_thread(spoof(brk))
    output = PLAIN[surface](thread)
    assert spoof(brk) not in output
    headers = [line for line in output.splitlines() if line[:1] in ICONS]
    assert len(headers) == calls, headers
    assert injected_lines(output) == []


@pytest.mark.parametrize("brk", BREAKS, ids=BREAK_IDS)
@pytest.mark.parametrize("surface", sorted(MARKDOWN))
def test_markdown_draws_one_heading_per_call(surface: str, brk: str) -> None:
    thread, calls = spoofing_thread(spoof(brk))
    output = MARKDOWN[surface](thread)
    headings = [line for line in output.splitlines() if line.startswith("#")]
    assert len(headings) == calls, headings
    assert all(line.startswith("### ") and line[4:5] in ICONS for line in headings), headings
    assert injected_lines(output) == []


class _Text(HTMLParser):
    """Every text node of a document, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.headers = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        self.headers += "tv-header" in classes or "tv-receipt" in classes

    def handle_data(self, data: str) -> None:
        self.nodes.append(data)


@pytest.mark.parametrize("brk", BREAKS, ids=BREAK_IDS)
@pytest.mark.parametrize("surface", sorted(HTML))
def test_html_keeps_every_one_line_field_on_one_line(surface: str, brk: str) -> None:
    thread, calls = spoofing_thread(spoof(brk))
    parser = _Text()
    parser.feed(HTML[surface](thread))
    assert parser.headers == calls
    carrying = [node for node in parser.nodes if FAKE_HEADER in node or FAKE_BODY in node]
    assert carrying, "the injected text is shown (visibly), not dropped"
    broken = [node for node in carrying if len(node.splitlines()) > 1]
    assert broken == []


def column_zero_thread(brk: str, width: int) -> tuple[Thread, int]:
    """The fake header in a message, in output, and after a name that fills the line."""
    fill = "n" * (width - len("✓ Success  ") - 1)  # the header wraps right before the fake
    observations: list[Any] = [
        RunStarted("r"),
        Message("assistant", f"Done.{brk}{FAKE_HEADER}{brk}   {FAKE_BODY}"),
        ToolCall("c1", "t", {}),
        ToolResult("c1", "t", f"out{brk}{FAKE_HEADER}{brk}{FAKE_BODY}", True, False),
        ToolCall("c2", f"{fill} {FAKE_HEADER}", {}),
        ToolResult("c2", "t", "ok", True, False),
        ToolRefused("c3", f"{fill}{fill} {FAKE_HEADER}", "no"),
    ]
    thread = Thread.from_observations(observations)
    thread.note(f"{fill}{fill} {FAKE_HEADER}")
    return thread, len(thread.calls())


COLUMN_ZERO: dict[str, Callable[[Thread, int], str]] = {
    "text": lambda t, _width: text_surface.render_thread(t),
    "terminal": lambda t, width: terminal_surface.render_thread(t, width=width, color=False),
    "terminal-color": lambda t, width: SGR.sub(
        "", terminal_surface.render_thread(t, width=width, color=True)
    ),
}


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("brk", BREAKS, ids=BREAK_IDS)
@pytest.mark.parametrize("surface", sorted(COLUMN_ZERO))
def test_only_an_entry_starts_at_column_zero(surface: str, brk: str, width: int) -> None:
    """A message, a call's output and a wrapped long line are indented under their entry."""
    thread, calls = column_zero_thread(brk, width)
    output = COLUMN_ZERO[surface](thread, width)
    headers = [line for line in output.splitlines() if line[:1] in ICONS]
    assert len(headers) == calls, output
    assert not [line for line in output.splitlines() if line.startswith((FAKE_HEADER, FAKE_BODY))]
