"""The Markdown surface: a thread as a Markdown document.

Untrusted text is escaped when inline and fenced when a block (see
``escape.py``); a tool's own Markdown is kept but made inert and quoted.
"""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import DEFAULT_LIMITS, Limits, truncation_omission
from toolview.render.markdown.escape import code_span, inline
from toolview.render.markdown.kinds import omission_md, window_block
from toolview.render.markdown.receipt import receipt_md, summary_md
from toolview.render.receipt import Receipt, receipt_from_view, view_entry
from toolview.render.registry import Registry
from toolview.render.summary import summarize
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
from toolview.render.words import aborted_text, duration_text, fallback_note

__all__ = ["body_md", "fallback_md", "header_md", "render_thread", "render_view"]


def render_thread(
    thread: Thread, registry: Registry[list[str]], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as Markdown, one section per call."""
    blocks: list[str] = []
    views: list[CallView | Receipt] = []
    for entry in thread.entries:
        if isinstance(entry, CallEntry):
            view = view_entry(entry, thread, limits)
            views.append(view)
            blocks.append(
                receipt_md(view) if isinstance(view, Receipt) else render_view(view, registry)
            )
        elif isinstance(entry, MessageEntry):
            window = shown_text(entry.message.text, limits)
            label = f"**{entry.message.role.capitalize()}:**"
            lines = window.text.rstrip("\n").split("\n")
            text = "  \n".join(inline(line) for line in lines)
            blocks.append("\n\n".join([f"{label} {text}", *omission_md(window.after)]))
        else:
            blocks.append(f"> **Note:** {inline(clean_field(entry.text, limits.max_chars))}")
    summary = summarize(views)
    if summary is not None:
        blocks.append(summary_md(summary))
    return "\n\n".join(blocks) + "\n"


def render_view(view: CallView, registry: Registry[list[str]]) -> str:
    """One call: a heading, a details line, then the body blocks (a refusal: its receipt)."""
    receipt = receipt_from_view(view)
    if receipt is not None:
        return receipt_md(receipt)
    return "\n\n".join([*header_md(view.header), *body_md(view.body, registry)])


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
    if isinstance(body, PendingBody):
        return ["_Running…_", *(window_block(body.partial) if body.partial else [])]
    if isinstance(body, AbortedBody):
        return [f"_{inline(aborted_text(body.outcome))}_"]
    if isinstance(body, RefusedBody):
        guard = f" by {body.guard}" if body.guard else ""
        return [f"**Refused{inline(guard)}:** {inline(body.reason)}"]
    if isinstance(body, ErrorBody):
        code = [f"error code {code_span(body.error_code)}"] if body.error_code else []
        return [*code, *window_block(body.message)]
    if isinstance(body, KindBody):
        return registry.render(body, fallback_md)
    if isinstance(body, FallbackBody):
        return fallback_md(body)
    assert isinstance(body, EmptyBody)
    return [f"_{inline(body.message)}_"]


def fallback_md(body: FallbackBody) -> list[str]:
    """The text in a fenced block, with the note saying why it is shown."""
    note = [f"> **Note:** {inline(fallback_note(body.note))}"] if body.note else []
    return [*note, *window_block(body.text, tool=truncation_omission(body.truncated))]
