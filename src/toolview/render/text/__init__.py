"""The ``text`` surface: plain text, no escape sequences of any kind.

``render_thread(thread)`` renders with the surface's own ``REGISTRY``;
``register(kind, renderer)`` adds a renderer (a function from a ``KindBody`` to
a list of lines) and returns the one it replaced.
"""

from __future__ import annotations

from toolview.contract.thread import Thread
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.stream import StreamShape
from toolview.render.text import layout
from toolview.render.text.content_blocks import blocks
from toolview.render.text.kinds import BUILTIN_RENDERERS
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
    """The thread as plain text."""
    return layout.render_thread(thread, registry or REGISTRY, limits=limits)


def render_call(view: CallView | Receipt, *, registry: Registry[list[str]] | None = None) -> str:
    """One decided call as plain text."""
    return layout.render_view(view, registry or REGISTRY) + "\n"


def stream_shape(
    *, limits: Limits = DEFAULT_LIMITS, registry: Registry[list[str]] | None = None
) -> StreamShape[str]:
    """How ``render.stream.ThreadStream`` writes a thread on this surface, entry by entry."""
    return layout.stream_shape(registry or REGISTRY, limits)
