"""The standalone page around rendered fragments: no script, a strict policy.

The policy is a ``<meta http-equiv>`` tag placed right after the charset, before
any content of ``<head>``, so it governs the whole document; the page needs no JavaScript
(truncation and long content use ``<details>``), so ``default-src 'none'``
costs nothing. ``referrer`` is ``no-referrer`` so following a result's link
tells the target nothing about where it was shown. So even markup that slipped
past escaping could neither run nor phone home.
"""

from __future__ import annotations

from toolview.render.html.structure import filters_html
from toolview.render.html.style import PAGE_CSP, PAGE_CSS
from toolview.safety import escape_html

__all__ = ["page_document", "page_head", "page_tail"]


def page_document(body: str, *, title: str) -> str:
    """A complete HTML document holding ``body`` (already safe markup) under ``title``.

    ``title`` is untrusted text: it is escaped here.
    """
    return f"{page_head(title)}{body}\n{page_tail()}"


def page_head(title: str) -> str:
    """The document up to where its body's markup starts: a stream writes this first.

    Its headings are the page's outline: the title (``<h1>``), then a heading
    for the thread read by screen readers only (``<h2>``), so each call's
    ``<h3>`` sits in order below it.

    ``title`` is untrusted text: it is escaped here.
    """
    safe_title = escape_html(title)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n'
        '<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{PAGE_CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{safe_title}</title>\n"
        f"<style>{PAGE_CSS}</style>\n"
        "</head>\n<body>\n<main>\n"
        f'<h1 class="tv-title">{safe_title}</h1>\n'
        f"{filters_html()}"
        '<h2 class="tv-sr">Tool calls and messages</h2>\n'
    )


def page_tail() -> str:
    """What closes the document after its body's markup (a line break before it)."""
    return "</main>\n</body>\n</html>\n"
