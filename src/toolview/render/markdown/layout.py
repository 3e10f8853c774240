"""The Markdown surface: a thread as a Markdown document.

Untrusted text is escaped when inline and fenced when a block (see
``escape.py``); a tool's own Markdown is kept but made inert and quoted. This
module says how each piece is written; ``toolview.render.plain`` lays the
pieces out, in the same order as the plain-text surface.
"""

from __future__ import annotations

from toolview.contract.thread import Thread
from toolview.render import plain
from toolview.render.bodies import Body, CallView, FallbackBody, Header
from toolview.render.limits import DEFAULT_LIMITS, Limits, Omission, Window
from toolview.render.markdown.escape import code_span, inline
from toolview.render.markdown.kinds import omission_md, window_block
from toolview.render.markdown.receipt import receipt_md, summary_md
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.words import duration_text

__all__ = ["body_md", "fallback_md", "header_md", "render_thread", "render_view"]


def render_thread(
    thread: Thread, registry: Registry[list[str]], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as Markdown, one section per call."""
    return plain.render_thread(thread, registry, _STYLE, limits)


def render_view(view: CallView | Receipt, registry: Registry[list[str]]) -> str:
    """One call: a heading, a details line, then the body blocks (a refusal: its receipt)."""
    return plain.render_view(view, registry, _STYLE)


def header_md(header: Header) -> list[str]:
    """``### ✓ bash — Success`` then kind, duration and arguments."""
    title = f"### {header.display.icon} {inline(header.tool_name)} — {header.display.label}"
    details = [code_span(header.kind)] if header.kind else []
    if header.duration_ms is not None:
        details.append(duration_text(header.duration_ms))
    if header.args:
        details.append(f"args: {code_span(header.args)}")
    return [title, " · ".join(details)] if details else [title]


def body_md(body: Body, registry: Registry[list[str]]) -> list[str]:
    """The body blocks in the order the core decided."""
    return plain.body_parts(body, registry, _STYLE)


def fallback_md(body: FallbackBody) -> list[str]:
    """The text in a fenced block, with the note saying why it is shown."""
    return plain.fallback_parts(body, _STYLE)


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
    error_code=lambda code: f"error code {code_span(code)}",
    running="_Running…_",
    header=header_md,
    message=_message,
    receipt=receipt_md,
    summary=summary_md,
    call_join="\n\n",
    body_indent="",
)
