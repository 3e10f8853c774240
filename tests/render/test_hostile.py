"""Hostile input in every field, through the text, terminal and Markdown surfaces.

Each payload goes into every field at once — tool name, kind, args (key and
value), text, every string prop of every kind, summary, errorCode, messages,
notes, a refusal's reason and guard — and the output is checked: no escape
sequence but SGR colours (none with colour off), no C0/C1/bidi control, no
secret, Rich markup literal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from markdown_it import MarkdownIt

from corpora import html_injection, secrets, terminal
from toolview.contract import Descriptor, Message, RunStarted, ToolCall, ToolRefused, ToolResult
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface

MARKUP = "[bold red]x[/] [link=https://evil.example]y[/link] :smile:"
SGR = re.compile(r"\x1b\[[0-9;]*m")
SECRET_VALUES = secrets.secret_values()


def kinds_with(p: str, keyed: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """Every built-in kind (plus an unknown one) with ``p`` in every string prop."""
    envelope = {"schemaVersion": "1.0", "tool": p, "status": p, "summary": p, "errorCode": p}
    k = p if keyed else "k"  # benign text as a key would read as a secret-named key
    return [
        ("shell", {"command": p, "exitCode": 1, "stdout": p, "stderr": p, "durationMs": 5}),
        ("file", {"path": p, "content": p, "language": p, "startLine": 3}),
        ("diff", {"diff": f"+{p}\n-{p}\n {p}", "path": p}),
        ("json", {"value": {k: [p, {"password" if keyed else "note": p}], "k": p}}),
        ("table", {"columns": [p, "b"], "rows": [[p, {k: p}]]}),
        ("links", {"links": [{"title": p, "url": p, "snippet": p}]}),
        ("image", {"mimeType": p, "data": p, "alt": p}),
        ("markdown", {"markdown": p}),
        ("envelope", {**envelope, "data": [{k: p}]}),
        (
            "blocks",
            {"blocks": blocks_with(p, k), "notes": [p], "progress": {"progress": 1, "message": p}},
        ),
        (p or "x", {"any": p}),
    ]


def blocks_with(p: str, k: str) -> list[dict[str, Any]]:
    """Every block type with ``p`` in every string field."""
    return [
        {"type": "text", "text": p},
        {"type": "image", "mimeType": p, "size": 3, "data": p},
        {"type": "audio", "mimeType": p},
        {"type": "resource_link", "uri": p, "name": p, "title": p, "description": p, "mimeType": p},
        {"type": "resource", "uri": p, "mimeType": p, "text": p},
        {"type": "unknown", "originalType": p, "json": {k: p}, "reason": p},
        {"type": "ui", "resourceUri": p, "source": "embedded"},
        {"type": "structured", "view": "table", "props": {"columns": [p], "rows": [[p]]}},
        {
            "type": "structured",
            "view": "envelope",
            "props": {"schemaVersion": "1.0", "tool": p, "status": p},
        },
        {"type": "structured", "view": "table", "props": {"columns": [p], "rows": [[p, p]]}},
    ]


def hostile_thread(p: str, keyed: bool = True) -> Thread:
    """``p`` in every field; ``keyed`` also puts it under secret-named keys."""
    observations: list[Any] = [RunStarted("r"), Message("user", p)]
    for number, (kind, props) in enumerate(kinds_with(p, keyed)):
        call_id = f"{p}-{number}"
        args = {p: p, "token": p} if keyed else {"value": p}
        observations.append(ToolCall(call_id, p or "t", args))
        observations.append(ToolResult(call_id, p or "t", p, True, False, Descriptor(kind, props)))
    envelope = (
        f'{{"schemaVersion":"1.0","tool":"t","status":"failed","summary":{_json(p)},'
        f'"errorCode":{_json(p)}}}'
    )
    observations.append(ToolCall("err", p or "t", {"a": p}))
    observations.append(ToolResult("err", "t", envelope, True, True))
    observations.append(ToolCall("err2", p or "t", {"a": p}))
    observations.append(ToolResult("err2", "t", f"Traceback\n  x\n{p}", True, True))
    observations.append(ToolCall("pending", p or "t", {}))
    observations.append(ToolResult("pending", "t", p, False, False))
    observations.append(ToolCall("refused", p or "t", {p: p, "token": p} if keyed else {"v": p}))
    observations.append(ToolRefused("refused", p or "t", p, p))
    observations.append(ToolRefused(f"refused-{p}", p or "t", f"{p}\n{p}"))
    thread = Thread.from_observations(observations)
    thread.note(p)
    return thread


def _json(value: str) -> str:
    import json

    return json.dumps(value)


RENDERERS: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "markdown": markdown_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=80, color=False),
    "terminal-color": lambda t: terminal_surface.render_thread(t, width=80, color=True),
}

TERMINAL_PAYLOADS = [*terminal.PAYLOADS, MARKUP]


def assert_no_controls(output: str, *, colour: bool) -> None:
    rest = SGR.sub("", output) if colour else output
    assert "\x1b" not in rest
    bad = sorted({f"U+{ord(c):04X}" for c in rest if c in terminal.FORBIDDEN})
    assert not bad, bad


@pytest.mark.parametrize("surface", sorted(RENDERERS))
def test_terminal_payloads_never_reach_the_output(surface: str) -> None:
    for payload in TERMINAL_PAYLOADS:
        output = RENDERERS[surface](hostile_thread(payload))
        assert_no_controls(output, colour=surface == "terminal-color")


@pytest.mark.parametrize("surface", sorted(RENDERERS))
def test_secrets_are_redacted_in_every_field(surface: str) -> None:
    for label, (text, secret) in secrets.SECRETS.items():
        output = RENDERERS[surface](hostile_thread(text))
        assert secret not in output, label
        assert "[redacted" in output or "\\[redacted" in output, label


@pytest.mark.parametrize("surface", ["text", "terminal"])
def test_benign_look_alikes_survive(surface: str) -> None:
    for label, text in secrets.BENIGN.items():
        output = RENDERERS[surface](hostile_thread(text, keyed=False))
        assert "[redacted" not in output, (label, text)


@pytest.mark.parametrize("surface", ["terminal", "terminal-color", "text"])
def test_rich_markup_comes_out_literally(surface: str) -> None:
    output = RENDERERS[surface](hostile_thread(MARKUP))
    assert SGR.sub("", output).count("[bold red]x[/]") >= 10


def test_markdown_output_is_inert_in_a_permissive_renderer() -> None:
    """Render the Markdown with raw HTML allowed: no tag, handler or script URL gets through."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    for payload in html_injection.PAYLOADS:
        html = md.render(markdown_surface.render_thread(hostile_thread(payload)))
        lowered = html.lower()
        assert "<script" not in lowered, payload
        assert not re.search(r"<[a-z]+[^>]*\son[a-z]+\s*=", lowered), payload
        assert not re.search(r"(href|src)\s*=\s*\"\s*(javascript|vbscript|data):", lowered), payload
        for tag in ("<iframe", "<object", "<embed", "<svg", "<img", "<meta", "<style", "<form"):
            assert tag not in lowered, (tag, payload)
