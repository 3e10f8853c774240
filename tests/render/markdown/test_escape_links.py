"""A tool's own Markdown keeps a link only when ``safe_url`` accepts its target.

The Markdown surface and the HTML surface must agree on what may be a link:
``//host`` (same scheme, another host), ``https://good@evil`` (reads as one host,
goes to another), a bare fragment or a relative path never become one.
"""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt
from render_samples import call_thread

from toolview.render import markdown as markdown_surface
from toolview.render.html.kinds.markdown import markdown_html
from toolview.render.markdown.escape import markdown_source
from toolview.safety import safe_url

PERMISSIVE = MarkdownIt("commonmark", {"html": True})
HREF = re.compile(r'href="([^"]*)"')

REJECTED = [
    "//evil.example/x",
    "https://good.example@evil.example/x",
    "http://user:pw@evil.example",
    "\\/\\/evil.example",
    "https:evil.example",
    "/threads/abc",
    "docs/page.md",
    "#top",
    "mailto:a@evil.example",
    "ftp://evil.example/f",
]


@pytest.mark.parametrize("url", REJECTED)
@pytest.mark.parametrize("form", ["inline", "titled", "reference"])
def test_a_target_safe_url_rejects_is_never_a_link(url: str, form: str) -> None:
    assert safe_url(url.replace("\\/", "/")) is None
    source = {
        "inline": f"see [the docs]({url}) now",
        "titled": f'see [the docs]({url} "t") now',
        "reference": f"see [the docs] now\n\n[the docs]: {url}\n",
    }[form]
    out = markdown_source(source)
    for html in (PERMISSIVE.render(out), markdown_html(out)):
        assert HREF.findall(html) == [], (out, html)
    assert "the docs" in out
    assert "evil.example" in out or url in out  # shown, as text


@pytest.mark.parametrize("url", ["https://example.com/a(b)", "http://127.0.0.1:8080/p?q=1#f"])
def test_an_http_link_with_a_plain_host_stays_a_link(url: str) -> None:
    out = markdown_source(f"[ok]({url}) and\n\n[r]: {url}\n\n[r]")
    assert PERMISSIVE.render(out).count('href="') == 2
    assert safe_url(url) is not None


def test_the_markdown_surface_renders_a_markdown_result_without_the_rejected_links() -> None:
    doc = "[a](//evil.example) [b](https://good.example@evil.example) [c](https://ok.example/)"
    thread = call_thread(tool="docs", text=doc, kind="markdown", props={"markdown": doc})
    out = markdown_surface.render_thread(thread)
    hrefs = HREF.findall(PERMISSIVE.render(out))
    assert hrefs == ["https://ok.example/"]
