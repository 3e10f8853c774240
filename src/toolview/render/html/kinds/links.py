"""The ``links`` kind in HTML: only http/https targets become links.

A target that ``safe_url`` refuses (``javascript:``, ``data:``, credentials in
the authority, hidden characters) is shown as inert text with a note, so the
reader still sees what the tool returned. Every link opens nothing on its own
and carries ``rel="nofollow noopener noreferrer"``.
"""

from __future__ import annotations

from toolview.render.clean import clean_field
from toolview.render.html.markup import esc, omission_html, truncation_html
from toolview.render.limits import Omission
from toolview.render.props import Link, LinksProps
from toolview.render.view import KindBody
from toolview.safety import redact, safe_url

__all__ = ["REL", "link_html", "render_links"]

REL = "nofollow noopener noreferrer"
_TITLE_CHARS = 300
_URL_CHARS = 2000
_SNIPPET_CHARS = 600


def link_html(title: str, url: str) -> str:
    """An anchor for ``url`` if it is safe (and holds no secret), else inert text."""
    shown_url = clean_field(url, _URL_CHARS)
    target = safe_url(url) if len(url) <= _URL_CHARS else None
    reason = "not an http/https link"
    if target is not None and redact(target) != target:
        target, reason = None, "holds a credential"  # never in an href, even hidden
    label = esc(clean_field(title, _TITLE_CHARS) or shown_url)
    if target is None:
        return (
            f'<span class="tv-link-refused">{label}</span> '
            f'<span class="tv-url">{esc(shown_url)} ({reason})</span>'
        )
    return (
        f'<a href="{esc(target)}" rel="{REL}">{label}</a> '
        f'<span class="tv-url">{esc(shown_url)}</span>'
    )


def _item(link: Link) -> str:
    snippet = ""
    if isinstance(link.snippet, str) and link.snippet:
        shown = clean_field(link.snippet, _SNIPPET_CHARS, "space")
        snippet = f'<span class="tv-snippet">{esc(shown)}</span>'
    return f"<li>{link_html(link.title, link.url)}{snippet}</li>"


def render_links(body: KindBody) -> str:
    """A list of links, bounded to the surface's ``max_links``."""
    props: LinksProps = body.props
    shown = props.links[: body.limits.max_links]
    if not shown:
        return '<p class="tv-empty">(no links)</p>' + truncation_html(body.truncated)
    items = "".join(_item(link) for link in shown)
    left = len(props.links) - len(shown)
    more = omission_html(Omission(left, "items"), noun="links") if left > 0 else ""
    return f'<ul class="tv-links">{items}</ul>{more}{truncation_html(body.truncated)}'
