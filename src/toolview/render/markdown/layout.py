"""The Markdown surface: a thread as a Markdown document.

Untrusted text is escaped when inline and fenced when a block (see
``escape.py``); a tool's own Markdown is kept but made inert and quoted. This
module gathers how each piece is written (``header``, ``receipt``, ``escape``);
``toolview.render.plain`` lays the pieces out, in the same order as the
plain-text surface.
"""

from __future__ import annotations

from toolview.contract import Thread
from toolview.render import plain
from toolview.render.bodies import CallView
from toolview.render.limits import DEFAULT_LIMITS, Limits, Omission, Window
from toolview.render.markdown.escape import code_span, inline, omission_md, window_block
from toolview.render.markdown.header import header_md
from toolview.render.markdown.receipt import receipt_md, summary_md
from toolview.render.plain_shape import plain_shape
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.stream import StreamShape, render_whole

__all__ = ["render_thread", "render_view", "stream_shape"]


def render_thread(
    thread: Thread, registry: Registry[list[str]], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as Markdown, one section per call."""
    return render_whole(thread, stream_shape(registry, limits), limits)


def stream_shape(
    registry: Registry[list[str]], limits: Limits = DEFAULT_LIMITS
) -> StreamShape[str]:
    """How a stream of the thread is written on this surface (``render.stream``)."""
    return plain_shape(registry, _STYLE, limits)


def render_view(view: CallView | Receipt, registry: Registry[list[str]]) -> str:
    """One call: a heading, a details line, then the body blocks (a refusal: its receipt)."""
    return plain.render_view(view, registry, _STYLE)


def _message(role: str, window: Window) -> str:
    """``**User:** text``, its lines kept apart by hard breaks, then what was cut."""
    lines = window.text.rstrip("\n").split("\n")
    text = "  \n".join(inline(line) for line in lines)
    return "\n\n".join([f"**{role.capitalize()}:** {text}", *omission_md(window.after)])


def _window(window: Window, tool: Omission | None) -> list[str]:
    return window_block(window, tool=tool)


_STYLE = plain.PlainStyle(
    emphasis=lambda words: f"_{inline(words)}_",
    note=lambda words: f"> **Note:** {inline(words)}",
    window=_window,
    tail=lambda window, tool: window_block(window, tool=tool, tool_before=True),
    error_code=lambda code: f"error code {code_span(code)}",
    running="_Running…_",
    header=header_md,
    message=_message,
    receipt=receipt_md,
    summary=summary_md,
    call_join="\n\n",
    body_indent="",
    nest=lambda block: "\n".join(f"> {line}" if line else ">" for line in block.split("\n")),
)
