"""The plain-text surface: a thread as lines, with no escape sequences at all.

Everything untrusted arrives here already cleaned by the core (secrets
redacted, terminal controls made visible); this module only says how each
piece is written — as is, with no markup — and ``toolview.render.plain`` lays
the pieces out, in the same order as the Markdown surface.
"""

from __future__ import annotations

from toolview.contract.thread import Thread
from toolview.render import plain
from toolview.render.bodies import Body, CallView, FallbackBody, Header
from toolview.render.limits import DEFAULT_LIMITS, Limits, Window
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.summary import Summary
from toolview.render.text.kinds import window_lines
from toolview.render.words import duration_text, receipt_text, summary_text

__all__ = [
    "body_lines",
    "fallback_lines",
    "header_lines",
    "receipt_line",
    "render_thread",
    "render_view",
    "summary_line",
]

_INDENT = "  "


def render_thread(
    thread: Thread, registry: Registry[list[str]], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as plain text, one block per message, call or note."""
    return plain.render_thread(thread, registry, _STYLE, limits)


def receipt_line(receipt: Receipt) -> str:
    """A refused call: ``⊘ bash refused by rules.toml: destructive · { … }``."""
    return receipt_text(receipt)


def summary_line(summary: Summary) -> str:
    """``── 9 calls: 6 succeeded, 1 failed, 1 refused, 1 running``."""
    return f"── {summary_text(summary)}"


def render_view(view: CallView | Receipt, registry: Registry[list[str]]) -> str:
    """One call: header lines, then the body indented under them (a refusal: its receipt)."""
    return plain.render_view(view, registry, _STYLE)


def header_lines(header: Header) -> list[str]:
    """``✓ bash — Success · shell · 12 ms`` then the arguments, if any."""
    parts = [f"{header.display.icon} {header.tool_name} — {header.display.label}"]
    if header.kind:
        parts.append(header.kind)
    if header.duration_ms is not None:
        parts.append(duration_text(header.duration_ms))
    lines = [" · ".join(parts)]
    if header.args:
        lines.append(f"{_INDENT}args: {header.args}")
    return lines


def body_lines(body: Body, registry: Registry[list[str]]) -> list[str]:
    """The body in the order the core decided; a kind goes through the registry."""
    return plain.body_parts(body, registry, _STYLE)


def fallback_lines(body: FallbackBody) -> list[str]:
    """The text, with the note saying why it is shown instead of a kind."""
    return plain.fallback_parts(body, _STYLE)


def _message(role: str, window: Window) -> str:
    """``User: first line`` and the rest of the message indented under it.

    Only an entry's first line starts at column 0, so a message's own lines
    can never pass for a call's header.
    """
    lines = window_lines(window)
    rest = [f"{_INDENT}{line}" if line else "" for line in lines[1:]]
    return "\n".join([f"{role.capitalize()}: {lines[0]}", *rest])


def _as_is(text: str) -> str:
    return text


_STYLE = plain.PlainStyle(
    emphasis=_as_is,
    note=lambda text: f"note: {text}",
    window=window_lines,
    error_code=lambda code: f"error code: {code}",
    running="… running",
    header=header_lines,
    message=_message,
    receipt=receipt_line,
    summary=summary_line,
    call_join="\n",
    body_indent=_INDENT,
)
