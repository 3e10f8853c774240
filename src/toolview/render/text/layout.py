"""The plain-text surface: a thread as lines, with no escape sequences at all.

Everything untrusted arrives here already cleaned by the core (secrets
redacted, terminal controls made visible); this module gathers how each piece
is written — as is, with no markup: ``header``, ``receipt``, ``lines`` — and
``toolview.render.plain`` lays the pieces out, in the same order as the
Markdown surface.
"""

from __future__ import annotations

from toolview.contract import Thread
from toolview.render import plain
from toolview.render.bodies import CallView
from toolview.render.limits import DEFAULT_LIMITS, Limits, Window
from toolview.render.plain_shape import plain_shape
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.stream import StreamShape, render_whole
from toolview.render.text.header import header_lines
from toolview.render.text.lines import INDENT, window_lines
from toolview.render.text.receipt import receipt_line, summary_line

__all__ = ["render_thread", "render_view", "stream_shape"]


def render_thread(
    thread: Thread, registry: Registry[list[str]], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as plain text, one block per message, call or note."""
    return render_whole(thread, stream_shape(registry, limits), limits)


def stream_shape(
    registry: Registry[list[str]], limits: Limits = DEFAULT_LIMITS
) -> StreamShape[str]:
    """How a stream of the thread is written on this surface (``render.stream``)."""
    return plain_shape(registry, _STYLE, limits)


def render_view(view: CallView | Receipt, registry: Registry[list[str]]) -> str:
    """One call: header lines, then the body indented under them (a refusal: its receipt)."""
    return plain.render_view(view, registry, _STYLE)


def _message(role: str, window: Window) -> str:
    """``User: first line`` and the rest of the message indented under it.

    Only an entry's first line starts at column 0, so a message's own lines
    can never pass for a call's header.
    """
    lines = window_lines(window)
    rest = [f"{INDENT}{line}" if line else "" for line in lines[1:]]
    return "\n".join([f"{role.capitalize()}: {lines[0]}", *rest])


def _as_is(text: str) -> str:
    return text


_STYLE = plain.PlainStyle(
    emphasis=_as_is,
    note=lambda text: f"note: {text}",
    window=window_lines,
    tail=lambda window, tool: window_lines(window, tool, tool_before=True),
    error_code=lambda code: f"error code: {code}",
    running="… running",
    header=header_lines,
    message=_message,
    receipt=receipt_line,
    summary=summary_line,
    call_join="\n",
    body_indent=INDENT,
    nest=lambda block: "\n".join(f"│ {line}" if line else "│" for line in block.split("\n")),
    nest_gap="│",
)
