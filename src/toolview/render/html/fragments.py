"""HTML fragments the standalone page and the web server both use.

``render_call_html`` renders one call as an ``<article>`` whose ``id`` derives
from its ``toolCallId`` (see ``ids``), so a live page can replace a call in
place; ``render_thread_html`` renders the whole thread, messages and notes
included. Everything is escaped; no fragment holds a script, an event handler
or a ``style`` attribute.
"""

from __future__ import annotations

from toolview.contract import CallEntry, MessageEntry, NoteEntry, Thread
from toolview.render.clean import clean_field, shown_text
from toolview.render.html.blocks import esc, omission_html
from toolview.render.html.bodies import body_html
from toolview.render.html.header import header_html
from toolview.render.html.ids import call_element_id
from toolview.render.html.kinds import BUILTIN_RENDERERS
from toolview.render.html.receipt import note_markup, receipt_html, summary_html
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.threadwalk import ThreadParts, walk_thread
from toolview.render.view import CallView, view_entry

__all__ = [
    "REGISTRY",
    "message_html",
    "note_html",
    "render_call_html",
    "render_thread_html",
    "render_view_html",
]

REGISTRY: Registry[str] = Registry(BUILTIN_RENDERERS)


def render_view_html(
    view: CallView | Receipt, element_id: str, registry: Registry[str] | None = None
) -> str:
    """One decided call as an ``<article>`` with the given (already safe) id.

    A refused call is drawn as its receipt (one line, same id). The call's
    notes come last, inside the article, so the live page's in-place
    replacement of a call shows them too.
    """
    if isinstance(view, Receipt):
        return receipt_html(view, element_id)
    body = body_html(view.body, registry or REGISTRY)
    notes = "".join(note_markup(note) for note in view.notes)
    return (
        f'<article class="tv-call" id="{element_id}" data-state="{esc(view.state)}" '
        f'data-status="{esc(view.header.status)}">'
        f'{header_html(view.header)}<div class="tv-body">{body}</div>{notes}</article>'
    )


def render_call_html(
    entry: CallEntry,
    thread: Thread,
    *,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> str:
    """One call of ``thread`` as a fragment, with id ``tv-call-<toolCallId, spelled safe>``.

    A refused call is its receipt, never the generic renderer's header and body.
    """
    return _entry_html(view_entry(entry, thread, limits), entry, registry)


def _entry_html(view: CallView | Receipt, entry: CallEntry, registry: Registry[str] | None) -> str:
    return render_view_html(view, call_element_id(entry.tool_call_id), registry)


def message_html(entry: MessageEntry, limits: Limits = DEFAULT_LIMITS) -> str:
    """A user or assistant message, cleaned and bounded."""
    role = entry.message.role
    window = shown_text(entry.message.text, limits)
    text = f'<div class="tv-message-text">{esc(window.text)}</div>' + omission_html(
        window.after, "below"
    )
    return (
        f'<section class="tv-message tv-message-{esc(role)}">'
        f'<span class="tv-role">{esc(role.capitalize())}</span>{text}</section>'
    )


def note_html(entry: NoteEntry, limits: Limits = DEFAULT_LIMITS) -> str:
    """A note about the thread itself (e.g. an unreadable input line)."""
    return note_markup(clean_field(entry.text, limits.max_chars, "space"))


def render_thread_html(
    thread: Thread,
    *,
    limits: Limits = DEFAULT_LIMITS,
    registry: Registry[str] | None = None,
) -> str:
    """The whole thread as one ``<div class="tv-thread">`` fragment, its summary last."""
    parts = ThreadParts(
        call=lambda view, entry: _entry_html(view, entry, registry),
        message=lambda entry: message_html(entry, limits),
        note=lambda entry: note_html(entry, limits),
        summary=summary_html,
    )
    pieces = walk_thread(thread, limits, parts)
    return '<div class="tv-thread">' + "\n".join(pieces) + "</div>"
