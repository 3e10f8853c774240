"""Markdown escaping: inline text inert, fences unclosable, a tool's Markdown defanged."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from toolview.render.markdown.escape import code_block, code_span, inline, link, markdown_source

MD = MarkdownIt("commonmark", {"html": True})


def rendered(source: str) -> str:
    return MD.render(source)


def test_inline_text_renders_as_itself() -> None:
    for text in ("*b* _i_ `c` [l](https://x) <b>x</b> &amp;", "# h", "1. x", "- y", "a|b ~s~"):
        html = rendered(inline(text))
        assert "<em>" not in html and "<a " not in html and "<code>" not in html, text
        assert "<h1>" not in html and "<ol>" not in html and "<ul>" not in html, text
        assert "<b>" not in html, text


def test_a_fence_cannot_be_closed_from_inside() -> None:
    block = code_block("```\n<script>x</script>\n````", "text")
    assert block.startswith("`````text\n")
    html = rendered(block + "\n\nafter")
    assert "<script>" not in html and "<p>after</p>" in html


def test_a_code_span_cannot_be_closed_from_inside() -> None:
    span = code_span("a `` b")
    assert rendered(span).count("<code>") == 1
    assert code_span("`x`") == "`` `x` ``"


def test_links_only_for_http_and_https() -> None:
    assert link("t", "https://example.com/a(b)") == "[t](https://example.com/a%28b%29)"
    unsafe = link("t", "javascript:alert(1)")
    assert "<a " not in rendered(unsafe) and "not an http/https link" in unsafe


def test_a_tools_markdown_keeps_its_structure_but_no_html_or_script_links() -> None:
    source = "# T\n\n* **b**\n\n<img src=x onerror=alert(1)>\n[x](javascript:alert(1))\n"
    source += "[y](JaVaScRiPt:alert(1)) [z](jav&#x61;script:alert(1)) ![i](https://t/p.png)\n"
    source += "[r]: javascript:alert(2)\n\n```\n<b>in code</b>\n```\n"
    html = rendered(markdown_source(source))
    assert "<h1>T</h1>" in html and "<strong>b</strong>" in html
    assert "<img" not in html
    assert not re.search(r'(href|src)="\s*(javascript|vbscript|data):', html, re.IGNORECASE)
    assert "&lt;b&gt;in code&lt;/b&gt;" in html


def test_an_unclosed_fence_is_closed() -> None:
    assert markdown_source("```\nopen").endswith("\n```")
