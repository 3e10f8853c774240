"""The plain-text surface: a thread as lines, with no escape sequences at all.

Everything untrusted arrives here already cleaned by the core (secrets
redacted, terminal controls made visible); this module only lays it out.
"""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import DEFAULT_LIMITS, Limits, truncation_omission
from toolview.render.receipt import Receipt, receipt_from_view, view_entry
from toolview.render.registry import Registry
from toolview.render.summary import Summary, summarize
from toolview.render.text.kinds import window_lines
from toolview.render.thread import CallEntry, MessageEntry, Thread
from toolview.render.view import (
    AbortedBody,
    Body,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    Header,
    KindBody,
    PendingBody,
    RefusedBody,
)
from toolview.render.words import (
    aborted_text,
    duration_text,
    fallback_note,
    receipt_text,
    summary_text,
)

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
    blocks: list[str] = []
    views: list[CallView | Receipt] = []
    for entry in thread.entries:
        if isinstance(entry, CallEntry):
            view = view_entry(entry, thread, limits)
            views.append(view)
            blocks.append(
                receipt_line(view) if isinstance(view, Receipt) else render_view(view, registry)
            )
        elif isinstance(entry, MessageEntry):
            text = shown_text(entry.message.text, limits)
            lines = window_lines(text)
            blocks.append("\n".join([f"{entry.message.role.capitalize()}: {lines[0]}", *lines[1:]]))
        else:
            blocks.append(f"note: {clean_field(entry.text, limits.max_chars)}")
    summary = summarize(views)
    if summary is not None:
        blocks.append(summary_line(summary))
    return "\n\n".join(blocks) + "\n"


def receipt_line(receipt: Receipt) -> str:
    """A refused call: ``⊘ bash refused by rules.toml: destructive · { … }``."""
    return receipt_text(receipt)


def summary_line(summary: Summary) -> str:
    """``── 9 calls: 6 succeeded, 1 failed, 1 refused, 1 running``."""
    return f"── {summary_text(summary)}"


def render_view(view: CallView, registry: Registry[list[str]]) -> str:
    """One call: header lines, then the body indented under them (a refusal: its receipt)."""
    receipt = receipt_from_view(view)
    if receipt is not None:
        return receipt_line(receipt)
    body = [_INDENT + line if line else "" for line in body_lines(view.body, registry)]
    return "\n".join([*header_lines(view.header), *body])


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
    if isinstance(body, PendingBody):
        partial = window_lines(body.partial) if body.partial else []
        return ["… running", *partial]
    if isinstance(body, AbortedBody):
        return [aborted_text(body.outcome)]
    if isinstance(body, RefusedBody):
        guard = f" by {body.guard}" if body.guard else ""
        return [f"Refused{guard}: {body.reason}"]
    if isinstance(body, ErrorBody):
        code = [f"error code: {body.error_code}"] if body.error_code else []
        return [*code, *window_lines(body.message)]
    if isinstance(body, KindBody):
        return registry.render(body, fallback_lines)
    if isinstance(body, FallbackBody):
        return fallback_lines(body)
    assert isinstance(body, EmptyBody)
    return [body.message]


def fallback_lines(body: FallbackBody) -> list[str]:
    """The text, with the note saying why it is shown instead of a kind."""
    note = [f"note: {fallback_note(body.note)}"] if body.note else []
    return [*note, *window_lines(body.text, truncation_omission(body.truncated))]
