"""A call's body in HTML, in the order the core decided.

pending (a running indicator, with the output so far) → aborted → error (the
descriptor never consulted) → the kind's renderer through the registry → the
text as a fallback with a note saying why. A fallback always
says so; an empty success says so in words; nothing renders as a blank.
"""

from __future__ import annotations

from toolview.render.html.blocks import esc, window_block
from toolview.render.registry import Registry
from toolview.render.view import (
    AbortedBody,
    Body,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    KindBody,
    PendingBody,
)
from toolview.render.words import aborted_text, fallback_note

__all__ = ["body_html", "fallback_html"]


def fallback_html(body: FallbackBody) -> str:
    """The text, under a visible note saying why it is shown instead of a kind."""
    note = ""
    if body.note:
        note = f'<p class="tv-fallback-note" role="note">{esc(fallback_note(body.note))}</p>'
    return note + window_block(body.text, truncated=body.truncated)


def _pending(body: PendingBody) -> str:
    indicator = (
        '<p class="tv-pending"><span class="tv-running" aria-hidden="true"></span> Running…</p>'
    )
    return indicator + (window_block(body.partial, end=True) if body.partial else "")


def _error(body: ErrorBody) -> str:
    code = ""
    if body.error_code:
        code = f'<div class="tv-meta">error code: <code>{esc(body.error_code)}</code></div>'
    return code + window_block(body.message, "tv-stderr", end=True)


def body_html(body: Body, registry: Registry[str]) -> str:
    """Markup for ``body``; a kind goes through ``registry`` (failures contained there)."""
    if isinstance(body, PendingBody):
        return _pending(body)
    if isinstance(body, AbortedBody):
        return f'<p class="tv-empty">{esc(aborted_text(body.outcome))}</p>'
    if isinstance(body, ErrorBody):
        return _error(body)
    if isinstance(body, KindBody):
        return registry.render(body, fallback_html)
    if isinstance(body, FallbackBody):
        return fallback_html(body)
    assert isinstance(body, EmptyBody)
    return f'<p class="tv-empty">{esc(body.message)}</p>'
