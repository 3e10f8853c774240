"""The standalone page: its policy admits exactly its own stylesheet and nothing else."""

from __future__ import annotations

import base64
import hashlib
import re

from html_markup import parse

from toolview.contract import STATUS_DISPLAY
from toolview.contract.thread import Thread
from toolview.render import html as surface
from toolview.render.html import FRAGMENT_CSS, PAGE_CSP, PAGE_CSS, call_element_id, render_page


def test_policy_allows_exactly_the_page_stylesheet() -> None:
    digest = base64.b64encode(hashlib.sha256(PAGE_CSS.encode()).digest()).decode()
    assert f"style-src 'sha256-{digest}'" in PAGE_CSP
    assert PAGE_CSP.startswith("default-src 'none';")
    assert "unsafe-inline" not in PAGE_CSP and "script-src" not in PAGE_CSP
    for directive in ("img-src data:", "base-uri 'none'", "form-action 'none'"):
        assert directive in PAGE_CSP


def test_page_carries_the_policy_before_the_stylesheet() -> None:
    page = render_page(Thread(), title="t")
    head = page.split("</head>", 1)[0]
    assert head.index('http-equiv="Content-Security-Policy"') < head.index("<style>")
    assert f"<style>{PAGE_CSS}</style>" in head
    assert parse(page).problems() == []


def test_title_is_escaped() -> None:
    page = render_page(Thread(), title="</title><script>alert(1)</script>")
    assert "<script>" not in page
    assert page.count("&lt;/title&gt;&lt;script&gt;") == 2


def test_every_status_colour_has_a_rule() -> None:
    for display in STATUS_DISPLAY.values():
        assert f".tv-colour-{display.colour} " in FRAGMENT_CSS


def test_fragment_css_restyles_nothing_outside_toolview() -> None:
    """A rule outside a tv- class only defines the theme's own ``--tv-`` properties."""
    rules = re.findall(r"(?:^|})\s*([^{}@]+?)\s*{([^{}]*)}", FRAGMENT_CSS)
    outside = [
        (selector, body)
        for selector, body in rules
        if ".tv-" not in selector and selector not in ("to", "from")
    ]
    assert outside, "the theme's properties are defined on :root"
    for selector, body in outside:
        declarations = [d.strip() for d in body.split(";") if d.strip()]
        assert all(d.startswith("--tv-") for d in declarations), selector


def test_call_ids_are_stable_distinct_and_redacted() -> None:
    assert call_element_id("c1") == call_element_id("c1") == "tv-call-c1"
    assert call_element_id("a_b") != call_element_id("a-b")
    assert call_element_id("a b") != call_element_id("a_20_b")
    token = "ghp_" + "Ab1" * 12
    assert "Ab1Ab1" not in call_element_id(f"call-{token}")
    long_id = call_element_id("x" * 500)
    assert long_id.startswith("tv-call-h-") and len(long_id) < 60


def test_register_returns_what_it_replaced() -> None:
    original = surface.REGISTRY.lookup("json")
    assert original is not None

    def mine(body: object) -> str:
        return "<p>mine</p>"

    try:
        assert surface.register("json", mine) is original
        assert surface.register("json", mine) is mine
        assert surface.register("brand-new", mine) is None
    finally:
        surface.REGISTRY.register("json", original)
        surface.REGISTRY.unregister("brand-new")
