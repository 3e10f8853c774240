"""The layout the text and Markdown surfaces share: a thread as blocks of lines.

Both surfaces put the same things in the same order — a call's header lines
then its body, the body chosen in the core's fixed order, a blank line between
entries, the summary last. What differs is only how a piece is written
(escaped or not, fenced or not, emphasised or not), so each surface passes a
``PlainStyle`` and this module does the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolview.render.bodies import (
    AbortedBody,
    Body,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    Header,
    KindBody,
    PendingBody,
    SubAgent,
    SubMessage,
    SubNote,
    SubPart,
)
from toolview.render.limits import Omission, Window, truncation_omission
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.stopped import stopped_text
from toolview.render.summary import Summary
from toolview.render.words import aborted_text, fallback_note, sub_headline

__all__ = [
    "PlainStyle",
    "aborted_parts",
    "body_parts",
    "error_parts",
    "fallback_parts",
    "render_view",
    "sub_parts",
]


@dataclass(frozen=True)
class PlainStyle:
    """How one plain surface writes each piece; every string it is given is cleaned."""

    emphasis: Callable[[str], str]
    """A status line of the surface's own (running, aborted, empty), from raw words."""
    note: Callable[[str], str]
    """A visible note (a fallback's reason, a thread note), from raw words."""
    window: Callable[[Window, Omission | None], list[str]]
    """A window of output with what was left out, the tool's own cut joined in."""
    tail: Callable[[Window, Omission | None], list[str]]
    """The same for a tail window (an error's text): the tool's cut is said above it."""
    error_code: Callable[[str], str]
    running: str
    header: Callable[[Header], list[str]]
    message: Callable[[str, Window], str]
    """A user or assistant message: its role and the window of its text."""
    receipt: Callable[[Receipt], str]
    summary: Callable[[Summary], str]
    call_join: str
    """What joins a call's header and body lines."""
    body_indent: str
    """What each non-empty body line starts with, under the header."""
    nest: Callable[[str], str] = lambda block: block
    """A sub-agent's entry (a block of lines) marked as nested: a gutter, a quote."""
    nest_gap: str | None = None
    """What goes between two of a sub-agent's entries, if ``call_join`` does not part them."""


def render_view(view: CallView | Receipt, registry: Registry[list[str]], style: PlainStyle) -> str:
    """One call: its header, then its body under it (a refusal: its receipt); its notes last."""
    notes = [style.body_indent + style.note(note) for note in view.notes]
    if isinstance(view, Receipt):
        return style.call_join.join([style.receipt(view), *notes])
    body = [
        style.body_indent + line if line else "" for line in body_parts(view.body, registry, style)
    ]
    sub = _indented(sub_parts(view.sub, registry, style), style) if view.sub else []
    return style.call_join.join([*style.header(view.header), *body, *sub, *notes])


def sub_parts(sub: SubAgent, registry: Registry[list[str]], style: PlainStyle) -> list[str]:
    """The sub-agent under its call: who and what it was asked, its counts, then its entries."""
    out = [style.emphasis(sub_headline(sub))]
    if sub.prompt is not None:
        out.append(style.message("prompt", sub.prompt))
    for number, part in enumerate(sub.entries):
        if number and style.nest_gap is not None:
            out.append(style.nest_gap)
        out.append(style.nest(_sub_part(part, registry, style)))
    if sub.more is not None:
        out.append(style.emphasis(f"{sub.more} of the sub-agent"))
    return out


def _sub_part(part: SubPart, registry: Registry[list[str]], style: PlainStyle) -> str:
    if isinstance(part, SubMessage):
        return style.message(part.role, part.text)
    if isinstance(part, SubNote):
        return style.note(part.text)
    return render_view(part, registry, style)


def _indented(blocks: list[str], style: PlainStyle) -> list[str]:
    """Blocks under the header: each line indented like the body, where the surface indents."""
    if not style.body_indent:
        return blocks
    lines = [line for block in blocks for line in block.split("\n")]
    return [style.body_indent + line if line else "" for line in lines]


def body_parts(body: Body, registry: Registry[list[str]], style: PlainStyle) -> list[str]:
    """The body in the order the core decided; a kind goes through the registry."""
    if isinstance(body, PendingBody):
        return [style.running, *(style.window(body.partial, None) if body.partial else [])]
    if isinstance(body, AbortedBody):
        return aborted_parts(body, style)
    if isinstance(body, ErrorBody):
        return registry.render_error(
            body,
            lambda error, note: error_parts(error, note, style),
            lambda said, drawn: said + drawn,
        )
    if isinstance(body, KindBody):
        return registry.render(body, lambda fallback: fallback_parts(fallback, style))
    if isinstance(body, FallbackBody):
        return fallback_parts(body, style)
    assert isinstance(body, EmptyBody)
    return [style.emphasis(body.message)]


def aborted_parts(body: AbortedBody, style: PlainStyle) -> list[str]:
    """Why the call has no result, then the output it had when it stopped (kept, not wiped)."""
    said = [style.emphasis(aborted_text(body.outcome, body.reason))]
    if body.partial is None:
        return said
    stopped = [style.emphasis(stopped_text(body.stopped))] if body.stopped else []
    return [*said, *style.window(body.partial, None), *stopped]


def error_parts(body: ErrorBody, note: str | None, style: PlainStyle) -> list[str]:
    """An error's own text (its kind not drawn): the code, the message, what was cut."""
    notes = [style.note(fallback_note(note))] if note else []
    code = [style.error_code(body.error_code)] if body.error_code else []
    return [*notes, *code, *style.tail(body.message, truncation_omission(body.truncated))]


def fallback_parts(body: FallbackBody, style: PlainStyle) -> list[str]:
    """The text, under the note saying why it is shown instead of a kind."""
    note = [style.note(fallback_note(body.note))] if body.note else []
    return [*note, *style.window(body.text, truncation_omission(body.truncated))]
