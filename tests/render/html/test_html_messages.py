"""Messages as Markdown on html: the markdown kind's parser and allowlist, headings demoted,
code highlighted, hostile Markdown inert, the cut said."""

from __future__ import annotations

import re

import pytest

from toolview.contract import Message
from toolview.contract.thread import Thread
from toolview.render.html import render_thread_html
from toolview.render.limits import Limits

HOSTILE = [
    "<script>alert(1)</script>",
    "<style>body{display:none}</style>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD4=)",
    "![pixel](https://tracker.example/p.png)",
    '<a href="javascript:alert(1)">x</a>',
    "[ref][1]\n\n[1]: javascript:alert(1)",
    "<https://ok.example/a> <javascript:alert(1)>",
    "```\n</code></pre><script>alert(1)</script>\n```",
    '```"><script>alert(1)</script>\nx\n```',
]


def _html(text: str, role: str = "assistant", limits: Limits | None = None) -> str:
    thread = Thread.from_observations([Message(role, text)])
    return render_thread_html(thread, limits=limits or Limits())


def test_a_message_is_drawn_as_markdown_with_its_line_breaks() -> None:
    html = _html("Some **bold** and `code`\nnext line\n\n- one\n- two")
    assert "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert "next line" in html and "<br>" in html  # a chat's newline stays a new line
    assert "<li>one</li>" in html


def test_markdown_headings_never_outrank_the_calls() -> None:
    html = _html("# one\n## two\n### three\n###### six")
    assert re.findall(r"<(h\d)>", html) == ["h4", "h5", "h6", "h6"]


def test_a_code_fence_is_highlighted_as_the_code_kind_is() -> None:
    html = _html("```python\ndef f():\n    return 'x'  # why\n```")
    fence = html.split('<code class="tv-fence">', 1)[1].split("</code>", 1)[0]
    assert '<span class="n">f</span>' in fence
    assert re.search(r'<span class="s">(&#x27;|\')x(&#x27;|\')</span>', fence)
    assert '<span class="c"># why</span>' in fence


@pytest.mark.parametrize("payload", HOSTILE)
@pytest.mark.parametrize("role", ["user", "assistant", "thinking"])
def test_hostile_markdown_in_a_message_is_inert(payload: str, role: str) -> None:
    html = _html(payload, role).lower()
    assert "<script" not in html and "<style" not in html and "<img" not in html
    assert re.search(r"<[^>]+\son[a-z]+\s*=", html) is None
    assert re.search(r"\sstyle\s*=", html) is None
    hrefs = re.findall(r'<a\s[^>]*href="([^"]*)"', html)  # in a tag, not in shown text
    assert all(href.startswith(("https://", "http://")) for href in hrefs), hrefs


def test_the_cut_still_applies_and_says_what_was_cut() -> None:
    text = "\n".join(f"line {n}" for n in range(50))
    html = _html(text, limits=Limits(max_lines=5))
    assert "line 4" in html and "line 5<" not in html and "line 49" not in html
    assert "45 more lines" in html


def test_thinking_stays_collapsed() -> None:
    html = _html("**plan**", "thinking")
    assert html.count("<details") == 1 and "<details open" not in html
    assert "<strong>plan</strong>" in html
