"""The html surface's layout: a thread and its calls as escaped fragments.

``render_call_html`` renders one call as an ``<article>`` whose ``id`` derives
from its ``toolCallId`` (see ``ids``), so a live page can replace a call in
place: a native ``<details>`` whose ``<summary>`` is the call's heading
(``header``), open or collapsed by ``opening``'s one rule;
``render_thread_html`` renders the whole thread, messages and notes included.
A refused call is its receipt (one line); any other call's body comes in the
order the core decided: pending (a running indicator, with the output so far)
→ aborted → error (drawn as an error; inside it the kind's renderer when the
descriptor validates, else the error's text) → the kind's renderer through the
registry → the text as a fallback with a note saying why; an empty success
says so in words, nothing renders as a blank. A call's own notes come last,
inside its ``<article>``, so the live page's in-place replacement shows them
too. Everything is escaped; no fragment holds a script, an event handler or a
``style`` attribute.
"""

from __future__ import annotations

from toolview.contract import CallEntry, MessageEntry, NoteEntry, Thread
from toolview.render.bodies import SubAgent
from toolview.render.clean import clean_field, shown_text
from toolview.render.html.document import page_head, page_tail
from toolview.render.html.header import args_html, body_kind, permalink_html, summary_line
from toolview.render.html.ids import call_element_id
from toolview.render.html.kinds.markdown import markdown_html
from toolview.render.html.markup import esc, omission_html, window_block
from toolview.render.html.opening import details_tag, opening_writer
from toolview.render.html.receipt import note_markup, receipt_html, summary_html
from toolview.render.html.subagent import sub_agent_html
from toolview.render.limits import DEFAULT_LIMITS, Limits, Window
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.stopped import stopped_text
from toolview.render.stream import StreamShape, render_whole
from toolview.render.threadwalk import ThreadParts
from toolview.render.view import (
    AbortedBody,
    Body,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    KindBody,
    PendingBody,
    view_entry,
)
from toolview.render.words import aborted_text, fallback_note

__all__ = [
    "body_html",
    "error_html",
    "fallback_html",
    "message_html",
    "note_html",
    "render_call_html",
    "render_thread_html",
    "render_view_html",
    "stream_shape",
    "window_message_html",
]


def render_thread_html(
    thread: Thread, registry: Registry[str], *, limits: Limits = DEFAULT_LIMITS
) -> str:
    """The whole thread as one ``<div class="tv-thread">`` fragment, its summary last."""
    return render_whole(thread, stream_shape(registry, limits), limits)


def stream_shape(
    registry: Registry[str], limits: Limits = DEFAULT_LIMITS, *, page: str | None = None
) -> StreamShape[str]:
    """The thread's ``<div class="tv-thread">``, one element per entry, as a stream writes it.

    ``page`` (a title) wraps it in the standalone document: its head and
    stylesheet are written first, its closing tags last.
    """
    parts = ThreadParts(
        call=lambda view, entry: _entry_html(view, entry, registry, None),
        message=lambda entry: message_html(entry, limits),
        note=lambda entry: note_html(entry, limits),
        summary=summary_html,
    )
    before, after = ("", "") if page is None else (page_head(page), "\n" + page_tail())
    return StreamShape(
        parts,
        show=_as_is,
        opening=before + '<div class="tv-thread">',
        separator="\n",
        closing="</div>" + after,
        settle=opening_writer(limits),
    )


def _as_is(markup: str) -> str:
    return markup


def render_call_html(
    entry: CallEntry,
    thread: Thread,
    registry: Registry[str],
    *,
    limits: Limits = DEFAULT_LIMITS,
    open_successes: bool = True,
) -> str:
    """One call of ``thread`` as a fragment, with id ``tv-call-<toolCallId, spelled safe>``.

    A refused call is its receipt, never the generic renderer's header and body.
    ``open_successes``: ``opening.successes_open`` of the thread's call count.
    """
    return _entry_html(view_entry(entry, thread, limits), entry, registry, open_successes)


def render_view_html(
    view: CallView | Receipt,
    element_id: str,
    registry: Registry[str],
    *,
    open_successes: bool | None = True,
) -> str:
    """One decided call as an ``<article>`` with the given (already safe) id.

    A refused call is drawn as its receipt (one line, same id). Any other call
    is a ``<details>`` (``opening.details_tag``: open unless it succeeded and
    ``open_successes`` is false; ``None`` leaves that to a stream's writer)
    whose summary is its heading, then its arguments, body, sub-agent and
    notes; the permalink sits beside the summary, never inside it.
    """
    if isinstance(view, Receipt):
        return receipt_html(view, element_id)
    body = body_html(view.body, registry)
    notes = "".join(note_markup(note) for note in view.notes)
    sub = "" if view.sub is None else _sub_html(view.sub, element_id, registry, open_successes)
    header = view.header
    return (
        f'<article class="tv-call" id="{element_id}" data-state="{esc(view.state)}" '
        f'data-status="{esc(header.status)}" data-tool="{esc(header.tool_name)}" '
        f'data-kind="{esc(body_kind(view.body))}"{_stored_attribute(view)}>'
        f"{permalink_html(element_id, header.tool_name)}"
        f"{details_tag(header.status, open_successes)}{summary_line(header)}{args_html(header)}"
        f'<div class="tv-body">{body}</div>{sub}{notes}</details></article>'
    )


def _stored_attribute(view: CallView) -> str:
    """``data-stored``: the live page offers a stored-apart output whole (``"whole"``: the log
    has it; ``"preview"``: only its preview is here)."""
    if view.stored_whole is None:
        return ""
    return f' data-stored="{"whole" if view.stored_whole else "preview"}"'


def _sub_html(
    sub: SubAgent, element_id: str, registry: Registry[str], open_successes: bool | None
) -> str:
    """The sub-agent under its call (``html.subagent``), its calls drawn as the thread's are."""
    return sub_agent_html(
        sub,
        element_id,
        call=lambda view, nested_id: render_view_html(
            view, nested_id, registry, open_successes=open_successes
        ),
        message=window_message_html,
    )


def _entry_html(
    view: CallView | Receipt,
    entry: CallEntry,
    registry: Registry[str],
    open_successes: bool | None = True,
) -> str:
    element_id = call_element_id(entry.tool_call_id)
    return render_view_html(view, element_id, registry, open_successes=open_successes)


def message_html(entry: MessageEntry, limits: Limits = DEFAULT_LIMITS) -> str:
    """A user or assistant message, cleaned and bounded."""
    return window_message_html(entry.message.role, shown_text(entry.message.text, limits))


def window_message_html(role: str, window: Window) -> str:
    """A message (or a sub-agent's prompt) from its role and its cleaned window.

    Its text is Markdown, drawn as the ``markdown`` kind draws it (the same
    parser, allowlist, link vetting, demoted headings and highlighted code
    blocks); what the window left out is said after it. Thinking (the model's
    reasoning) is collapsed: a native ``<details>`` whose summary is its
    label, so it opens without any script.
    """
    text = (
        f'<div class="tv-message-text tv-markdown">{markdown_html(window.text, breaks=True)}</div>'
        + omission_html(window.after, "below")
    )
    if role == "thinking":
        return (
            f'<details class="tv-message tv-message-{esc(role)}">'
            f'<summary class="tv-role">{esc(role.capitalize())}</summary>{text}</details>'
        )
    return (
        f'<section class="tv-message tv-message-{esc(role)}">'
        f'<span class="tv-role">{esc(role.capitalize())}</span>{text}</section>'
    )


def note_html(entry: NoteEntry, limits: Limits = DEFAULT_LIMITS) -> str:
    """A note about the thread itself (e.g. an unreadable input line)."""
    return note_markup(clean_field(entry.text, limits.max_chars, "space"))


def body_html(body: Body, registry: Registry[str]) -> str:
    """Markup for ``body``; a kind goes through ``registry`` (failures contained there)."""
    if isinstance(body, PendingBody):
        return _pending(body)
    if isinstance(body, AbortedBody):
        return _aborted(body)
    if isinstance(body, ErrorBody):
        return registry.render_error(body, error_html, lambda said, drawn: said + drawn)
    if isinstance(body, KindBody):
        return registry.render(body, fallback_html)
    if isinstance(body, FallbackBody):
        return fallback_html(body)
    assert isinstance(body, EmptyBody)
    return f'<p class="tv-empty">{esc(body.message)}</p>'


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


def _aborted(body: AbortedBody) -> str:
    """Why the call has no result, then the output it had when it stopped (kept, not wiped)."""
    said = f'<p class="tv-empty">{esc(aborted_text(body.outcome, body.reason))}</p>'
    if body.partial is None:
        return said
    stopped = f'<p class="tv-meta">{esc(stopped_text(body.stopped))}</p>' if body.stopped else ""
    return said + window_block(body.partial, end=True) + stopped


def error_html(body: ErrorBody, note: str | None = None) -> str:
    """An error's own text (its kind not drawn): the code, the message, what was cut."""
    html = ""
    if note:
        html = f'<p class="tv-fallback-note" role="note">{esc(fallback_note(note))}</p>'
    if body.error_code:
        html += f'<div class="tv-meta">error code: <code>{esc(body.error_code)}</code></div>'
    return html + window_block(body.message, "tv-stderr", end=True, truncated=body.truncated)
