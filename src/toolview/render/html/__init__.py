"""The ``html`` surface: escaped fragments and a standalone, script-free page.

``render_page(thread)`` gives a complete document with a strict
Content-Security-Policy; ``render_thread_html`` and ``render_call_html`` give
fragments for a page of your own (the web server's or a notebook's), styled
by ``FRAGMENT_CSS`` (every rule scoped to a ``tv-`` class). Each call is a
native ``<details>``: open unless it succeeded in a thread of more than
``Limits.open_calls`` calls (``successes_open``, which a live page asks with
the thread's call count and passes as ``open_successes``); ``PAGE_CSS`` adds
the standalone page's own rules and ``PAGE_CSP`` allows exactly that sheet.
Each renders with the surface's own ``REGISTRY`` unless given another;
``register(kind, renderer)`` adds a renderer (a function from a ``KindBody``
to markup *you* vouch for) and returns the one it replaced.
"""

from __future__ import annotations

from toolview.contract import CallEntry, Thread
from toolview.render.html import layout
from toolview.render.html.content_blocks import render_blocks
from toolview.render.html.ids import call_element_id
from toolview.render.html.kinds import BUILTIN_RENDERERS
from toolview.render.html.opening import successes_open
from toolview.render.html.style import FRAGMENT_CSS, PAGE_CSP, PAGE_CSS
from toolview.render.limits import DEFAULT_LIMITS, WINDOWED_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.stream import StreamShape, render_whole
from toolview.render.view import CallView

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
    "stream_shape",
    "successes_open",
]

REGISTRY: Registry[str] = Registry({**BUILTIN_RENDERERS, "blocks": render_blocks})


def register(kind: str, renderer: Renderer[str]) -> Renderer[str] | None:
    """Render ``kind`` with ``renderer`` on this surface; return what it replaced."""
    return REGISTRY.register(kind, renderer)


def render_page(
    thread: Thread,
    *,
    title: str = "toolview",
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> str:
    """A complete, self-contained HTML document for ``thread`` (what ``toolview show
    --surface html`` writes): no script, no request, only its own stylesheet."""
    shape = layout.stream_shape(registry or REGISTRY, limits, page=title)
    return render_whole(thread, shape, limits)


def render_thread_html(
    thread: Thread,
    *,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> str:
    """The whole thread as one ``<div class="tv-thread">`` fragment, its summary last."""
    return layout.render_thread_html(thread, registry or REGISTRY, limits=limits)


def render_call_html(
    entry: CallEntry,
    thread: Thread,
    *,
    limits: Limits = WINDOWED_LIMITS,
    registry: Registry[str] | None = None,
    open_successes: bool = True,
) -> str:
    """One call of ``thread`` as a fragment, with id ``tv-call-<toolCallId, spelled safe>``.

    ``open_successes``: whether a successful call is drawn open; a page of a
    thread asks ``successes_open(calls)`` with the thread's call count.
    ``limits``: by default the live page's (``WINDOWED_LIMITS``: a sub-agent's
    first entries, the rest counted), the page these fragments are made for,
    which has its server behind it; ``DEFAULT_LIMITS`` draws every entry, as
    the exports (``render_page``, ``render_thread_html``, ``stream_shape``) do.
    """
    return layout.render_call_html(
        entry, thread, registry or REGISTRY, limits=limits, open_successes=open_successes
    )


def render_view_html(
    view: CallView | Receipt,
    element_id: str,
    registry: Registry[str] | None = None,
    *,
    open_successes: bool = True,
) -> str:
    """One decided call (a refusal: its receipt) as an ``<article>`` with the given safe id."""
    return layout.render_view_html(
        view, element_id, registry or REGISTRY, open_successes=open_successes
    )


def stream_shape(
    *,
    title: str | None = "toolview",
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> StreamShape[str]:
    """How ``render.stream.ThreadStream`` writes a thread as HTML, entry by entry: the
    standalone page under ``title`` (its head and stylesheet first), or with ``title=None``
    the ``<div class="tv-thread">`` fragment alone."""
    return layout.stream_shape(registry or REGISTRY, limits, page=title)
