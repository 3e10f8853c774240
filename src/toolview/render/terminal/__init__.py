"""The ``terminal`` surface: Rich renderables, colours from the one status table.

``render_thread(thread, width=80, color=False)`` returns the rendered string;
``thread_renderables`` gives the renderables for your own ``Console``.
``register(kind, renderer)`` adds a renderer (``KindBody`` → Rich renderable)
and returns the one it replaced.
"""

from __future__ import annotations

from rich.console import RenderableType

from toolview.contract.thread import Thread
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.stream import StreamShape
from toolview.render.summary import Summary
from toolview.render.terminal import layout
from toolview.render.terminal.content_blocks import blocks
from toolview.render.terminal.kinds import BUILTIN_RENDERERS
from toolview.render.terminal.receipt import SummaryLine
from toolview.render.view import CallView

__all__ = [
    "REGISTRY",
    "register",
    "render_call",
    "render_thread",
    "stream_shape",
    "summary_renderable",
    "thread_renderables",
]

REGISTRY: Registry[RenderableType] = Registry({**BUILTIN_RENDERERS, "blocks": blocks})


def register(kind: str, renderer: Renderer[RenderableType]) -> Renderer[RenderableType] | None:
    """Render ``kind`` with ``renderer`` on this surface; return what it replaced."""
    return REGISTRY.register(kind, renderer)


def thread_renderables(
    thread: Thread,
    *,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[RenderableType] | None = None,
) -> list[RenderableType]:
    """One Rich renderable per entry, for printing on a console of your own."""
    return layout.thread_renderables(thread, registry or REGISTRY, limits)


def summary_renderable(summary: Summary) -> RenderableType:
    """A thread's summary alone, as the thread's last renderable draws it: for a follower
    that prints entries one by one and the summary once, at the end."""
    return SummaryLine(summary)


def render_thread(
    thread: Thread,
    *,
    width: int = 80,
    color: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[RenderableType] | None = None,
) -> str:
    """The thread as terminal text at ``width``; SGR colours only when ``color``."""
    renderables = thread_renderables(thread, limits=limits, registry=registry)
    return layout.to_string(renderables, width=width, color=color)


def render_call(
    view: CallView | Receipt,
    *,
    width: int = 80,
    color: bool = False,
    registry: Registry[RenderableType] | None = None,
) -> str:
    """One decided call as terminal text."""
    renderable = layout.call_renderable(view, registry or REGISTRY)
    return layout.to_string([renderable], width=width, color=color)


def stream_shape(
    *,
    width: int = 80,
    color: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[RenderableType] | None = None,
) -> StreamShape[RenderableType]:
    """How ``render.stream.ThreadStream`` writes a thread as terminal text, entry by entry."""
    return layout.stream_shape(registry or REGISTRY, limits, width=width, color=color)
