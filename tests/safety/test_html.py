"""HTML escaping, the Markdown-output sanitizer and link vetting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import escape_html, safe_url, sanitize_html


def test_escape_html_escapes_all_five_and_shows_bidi() -> None:
    assert escape_html("<a href='x'>&\"</a>\u202e") == (
        "&lt;a href=&#x27;x&#x27;&gt;&amp;&quot;&lt;/a&gt;&lt;U+202E&gt;"
    )


HOSTILE = [
    ("<script>alert(1)</script>ok", "alert"),
    ("<style>body{display:none}</style>ok", "display"),
    ('<p onclick="steal()">ok</p>', "onclick"),
    ('<img src=x onerror="steal()">ok', "<img"),
    ('<svg onload="steal()"><script>x</script></svg>ok', "<svg"),
    ('<iframe src="https://evil"></iframe>ok', "iframe"),
    ('<a href="javascript:alert(1)">ok</a>', "javascript"),
    ('<a href="JaVaScRiPt:alert(1)">ok</a>', "script:"),
    ('<a href="&#106;avascript:alert(1)">ok</a>', "href"),
    ('<a href="java&#x09;script:alert(1)">ok</a>', "href"),
    ('<a href="data:text/html,<script>x</script>">ok</a>', "data:"),
    ('<a href="vbscript:msgbox">ok</a>', "vbscript"),
    ('<a href="//evil.example">ok</a>', "evil"),
    ('<form action="https://evil"><input name=p></form>ok', "<form"),
    ('<p style="position:fixed">ok</p>', "style"),
    ("<math><mi>x</mi></math><object data=x></object>ok", "<object"),
    ("<!-- comment --><p>ok</p>", "comment"),
    ('<a href="https://good.example@evil.example">ok</a>', "evil"),
]


@pytest.mark.parametrize(("markup", "banned"), HOSTILE, ids=lambda v: str(v)[:24])
def test_hostile_markup_is_removed(markup: str, banned: str) -> None:
    out = sanitize_html(markup)
    assert banned.lower() not in out.lower()
    assert "ok" in out


def test_markdown_markup_survives_and_links_get_rel() -> None:
    markup = (
        "<h2>T</h2><p><strong>b</strong> <em>i</em> <code>c</code> <del>d</del></p>"
        '<pre><code class="language-python">x</code></pre>'
        "<blockquote><ul><li>a</li></ul></blockquote>"
        "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>c</td></tr></tbody></table>"
        '<p><a href="https://example.com/a?b=1">link</a><span class="k">s</span></p><hr>'
    )
    out = sanitize_html(markup)
    for tag in ("<h2>", "<strong>", "<em>", "<code", "<del>", "<pre>", "<blockquote>", "<li>"):
        assert tag in out
    assert "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>c</td>" in out
    assert '<a href="https://example.com/a?b=1" rel="nofollow noopener noreferrer">' in out
    assert '<code class="language-python">' in out and '<span class="k">' in out


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com",
        "http://example.com:8080/p?q=1#f",
        "  https://example.com/  ",
        "HTTPS://EXAMPLE.COM",
        "https://[2001:db8::1]/",
        "https://例え.jp/パス",
    ],
)
def test_safe_url_accepts_plain_http_links(url: str) -> None:
    assert safe_url(url) == url.strip()


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:x",
        "\x01javascript:x",
        " \x00javascript:x",
        "data:text/html,x",
        "vbscript:x",
        "//evil.example",
        "/relative",
        "file:///etc/passwd",
        "https://",
        "https:evil.example",
        "https:\\\\evil.example",
        "https://good.example@evil.example",
        "https://evil.example\\@good",
        "http://a b.com",
        "https://exa\u202emple.com",
        "&#106;avascript:x",
        "ftp://example.com",
        "",
    ],
)
def test_safe_url_rejects_everything_else(url: str) -> None:
    assert safe_url(url) is None


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_html_functions_are_total(text: str) -> None:
    assert isinstance(escape_html(text), str)
    assert isinstance(sanitize_html(text), str)
    assert "<" not in escape_html(text) and ">" not in escape_html(text)
    url = safe_url(text)
    assert url is None or url.lower().startswith(("http://", "https://"))
