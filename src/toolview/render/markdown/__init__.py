"""The ``markdown`` surface: a thread as a Markdown document, inert whatever it holds.

``render_thread(thread)`` renders with the surface's own ``REGISTRY``;
``register(kind, renderer)`` adds a renderer (``KindBody`` → list of Markdown
blocks) and returns the one it replaced.
"""

from __future__ import annotations

from toolview.contract.thread import Thread
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.markdown import layout
from toolview.render.markdown.content_blocks import blocks
from toolview.render.markdown.kinds import BUILTIN_RENDERERS
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.stream import StreamShape
from toolview.render.view import CallView

__all__ = ["REGISTRY", "register", "render_call", "render_thread", "stream_shape"]

REGISTRY: Registry[list[str]] = Registry({**BUILTIN_RENDERERS, "blocks": blocks})


def register(kind: str, renderer: Renderer[list[str]]) -> Renderer[list[str]] | None:
    """Render ``kind`` with ``renderer`` on this surface; return what it replaced."""
    return REGISTRY.register(kind, renderer)


def render_thread(
    thread: Thread,
    *,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[list[str]] | None = None,
) -> str:
    """The thread as Markdown."""
    return layout.render_thread(thread, registry or REGISTRY, limits=limits)


def render_call(view: CallView | Receipt, *, registry: Registry[list[str]] | None = None) -> str:
    """One decided call as Markdown."""
    return layout.render_view(view, registry or REGISTRY) + "\n"


def stream_shape(
    *, limits: Limits = DEFAULT_LIMITS, registry: Registry[list[str]] | None = None
) -> StreamShape[str]:
    """How ``render.stream.ThreadStream`` writes a thread on this surface, entry by entry."""
    return layout.stream_shape(registry or REGISTRY, limits)
