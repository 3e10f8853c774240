"""Every hostile corpus, in every field of every kind, comes out inert (no browser)."""

from __future__ import annotations

import json
import re

import pytest
from html_hostile import hostile_thread
from html_markup import parse

from corpora import html_injection, secrets, terminal
from toolview.contract import decode_observation
from toolview.contract.thread import Thread
from toolview.render.html import render_page, render_thread_html
from toolview.safety import escape_html


@pytest.fixture(scope="module")
def injection_page() -> str:
    return render_page(hostile_thread(html_injection.PAYLOADS), title=html_injection.PAYLOADS[0])


def test_the_corpus_is_big_enough() -> None:
    assert len(html_injection.PAYLOADS) >= 150


def test_no_injected_markup_survives(injection_page: str) -> None:
    assert parse(injection_page).problems() == []


def test_only_toolview_style_element_and_no_script(injection_page: str) -> None:
    lowered = injection_page.lower()
    assert "<script" not in lowered
    assert lowered.count("<style") == 1
    assert lowered.count("<meta http-equiv") == 1
    urls = [
        value or ""
        for _, attrs in parse(injection_page).tags
        for name, value in attrs.items()
        if name in ("href", "src", "action", "data", "poster", "background")
    ]
    assert not [url for url in urls if "script:" in url.lower()]


def test_payload_text_is_still_shown_escaped(injection_page: str) -> None:
    for payload in ("<script>window.__pwned=1;alert(1)</script>", "<svg onload=alert(1)>"):
        assert escape_html(payload) in injection_page


def test_terminal_controls_never_reach_the_html() -> None:
    html = render_page(hostile_thread(terminal.PAYLOADS))
    leaked = sorted({f"U+{ord(ch):04X}" for ch in html if ch in terminal.FORBIDDEN})
    assert leaked == []


@pytest.mark.parametrize(
    "label",
    sorted(secrets.SECRETS),
)
def test_no_secret_in_any_field(label: str) -> None:
    text, secret = secrets.SECRETS[label]
    html = render_page(hostile_thread([text]))
    assert secret not in html
    assert "[redacted: " in html


def _plain_and_shell(text: str) -> Thread:
    """The text as a plain result and as a shell command's stdout (no key around it)."""
    shell = {"command": "cat x", "exitCode": 0, "stdout": text, "stderr": ""}
    lines = [
        {
            "kind": "tool-result",
            "toolCallId": "a",
            "toolName": "t",
            "text": text,
            "complete": True,
            "isError": False,
        },
        {
            "kind": "tool-result",
            "toolCallId": "b",
            "toolName": "t",
            "text": text,
            "complete": True,
            "isError": False,
            "descriptor": {"kind": "shell", "props": shell},
        },
    ]
    return Thread.from_observations(decode_observation(json.dumps(line)) for line in lines)


@pytest.mark.parametrize("label", sorted(secrets.BENIGN))
def test_benign_look_alikes_survive(label: str) -> None:
    text = secrets.BENIGN[label]
    html = render_thread_html(_plain_and_shell(text))
    assert "[redacted" not in html
    assert html.count(escape_html(text[:200])) >= 2


def test_element_ids_are_unique_and_plain() -> None:
    html = render_thread_html(hostile_thread(html_injection.PAYLOADS[:40]))
    ids = [attrs["id"] for _, attrs in parse(html).tags if "id" in attrs]
    assert len(ids) == len(set(ids)) > 40
    assert all(re.fullmatch(r"tv-call-[A-Za-z0-9_-]+", value or "") for value in ids)
