"""The standalone page: a whole thread, readable offline, with no JavaScript.

``render_page`` is what ``toolview show --surface html`` writes. The page
carries a restrictive Content-Security-Policy (no script, no request, only its
own stylesheet by hash, images only as ``data:``), so even markup that slipped
past escaping could neither run nor phone home.
"""

from __future__ import annotations

from toolview.contract.thread import Thread
from toolview.render.html.document import page_document
from toolview.render.html.fragments import render_thread_html
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.registry import Registry

__all__ = ["render_page"]


def render_page(
    thread: Thread,
    *,
    title: str = "toolview",
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> str:
    """A complete, self-contained HTML document for ``thread``."""
    body = render_thread_html(thread, limits=limits, registry=registry)
    return page_document(body, title=title)
