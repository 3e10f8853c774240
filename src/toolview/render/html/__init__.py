"""The ``html`` surface: escaped fragments and a standalone, script-free page.

``render_page(thread)`` gives a complete document with a strict
Content-Security-Policy; ``render_thread_html`` and ``render_call_html`` give
fragments for a page of your own (the web server's or a notebook's), styled
by ``FRAGMENT_CSS`` (every rule scoped to a ``tv-`` class); ``PAGE_CSS`` adds
the standalone page's own rules and ``PAGE_CSP`` allows exactly that sheet.
``register(kind, renderer)`` adds a renderer (a function from a ``KindBody``
to markup *you* vouch for) and returns the one it replaced.
"""

from __future__ import annotations

from toolview.render.html.fragments import (
    REGISTRY,
    render_call_html,
    render_thread_html,
    render_view_html,
)
from toolview.render.html.ids import call_element_id
from toolview.render.html.page import render_page
from toolview.render.html.style import FRAGMENT_CSS, PAGE_CSP, PAGE_CSS
from toolview.render.registry import Renderer

__all__ = [
    "FRAGMENT_CSS",
    "PAGE_CSP",
    "PAGE_CSS",
    "REGISTRY",
    "call_element_id",
    "register",
    "render_call_html",
    "render_page",
    "render_thread_html",
    "render_view_html",
]


def register(kind: str, renderer: Renderer[str]) -> Renderer[str] | None:
    """Render ``kind`` with ``renderer`` on this surface; return what it replaced."""
    return REGISTRY.register(kind, renderer)
