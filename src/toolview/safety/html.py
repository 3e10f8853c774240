"""Escape untrusted text for HTML, and sanitize the markup toolview makes.

``escape_html`` is for text: nothing in it may become markup. ``sanitize_html``
is for the HTML that toolview's own Markdown renderer produces from untrusted
Markdown: an allowlist (nh3/ammonia) keeps structure and drops everything that
runs code, loads resources or escapes its box.
"""

from __future__ import annotations

import html as _stdlib_html

from toolview.safety.invisible import reveal_invisible
from toolview.safety.urls import safe_url

__all__ = ["ALLOWED_TAGS", "escape_html", "sanitize_html"]

ALLOWED_TAGS = frozenset(
    {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code"}
    | {"strong", "em", "b", "i", "del", "span", "a", "ul", "ol", "li"}
    | {"table", "thead", "tbody", "tr", "th", "td"}
)
_ATTRIBUTES = {"a": {"href"}, "span": {"class"}, "code": {"class"}}
# Removed with their content, not just unwrapped: their text is code or noise.
_DROP_WITH_CONTENT = {
    "script",
    "style",
    "svg",
    "math",
    "template",
    "iframe",
    "object",
    "noscript",
    "textarea",
}
_CLASS_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ ")


def escape_html(text: str) -> str:
    """Escape ``& < > " '`` and show bidi/invisible characters as ``<U+XXXX>``."""
    return _stdlib_html.escape(reveal_invisible(text), quote=True)


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    """Links only to http(s) URLs with a host; classes only as plain names
    (code highlighting), never anything a selector could abuse."""
    if attribute == "href":
        return safe_url(value)
    if attribute == "class":
        return value if set(value) <= _CLASS_CHARS else None
    return value if attribute == "rel" else None  # "rel" is only ever nh3's own


def sanitize_html(html: str) -> str:
    """Keep the allowlisted tags, ``href`` on ``a`` (http/https only, with
    ``rel="nofollow noopener noreferrer"``), ``class`` on ``span``/``code``;
    drop scripts, styles, event handlers, iframes, SVG, forms and images.

    nh3 is imported here, on the first Markdown drawn to HTML: a text, Markdown
    or terminal run never loads its Rust extension (start-up, issue 23: 8)."""
    import nh3

    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=_DROP_WITH_CONTENT,
        attributes=_ATTRIBUTES,
        attribute_filter=_attribute_filter,
        strip_comments=True,
        link_rel="nofollow noopener noreferrer",
        url_schemes={"http", "https"},
        url_relative="deny",
    )
