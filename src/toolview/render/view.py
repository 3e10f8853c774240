"""The generic renderer, decided once for every surface.

``view_entry`` is what every surface draws for one call. It asks the thread
for the call's state (``Thread.state``: the state machine's, never re-derived
here) and its display status (``contract.status.call_status``, the one every
count, page and summary reads), and decides once: a refused call is its
one-line ``Receipt``; any other call is a ``CallView`` — the header (tool
name, display status, timing where known, arguments bounded and redacted) and the body
in the fixed order: pending → aborted → error → the descriptor's kind (with
validated props) → the text as a fallback, with a note saying why. Both carry
the call's own notes (``render.notes``). A surface only lays out what it is
given; it never branches on status or state by itself.

An error's *status* wins the frame (it is drawn as an error, whatever its
descriptor says), but its body stays informative: an error whose descriptor
validates carries its kind body inside the ``ErrorBody`` (see there), because
a failing command is exactly when its exit code and stderr are read.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

from toolview.contract import (
    TEXT_KIND,
    CallEntry,
    CallState,
    Descriptor,
    DisplayStatus,
    Envelope,
    PropsError,
    StoredOutput,
    Thread,
    ToolRefused,
    ToolResult,
    Truncation,
    parse_envelope,
    validate_props,
)
from toolview.contract.call_state import IN_FLIGHT
from toolview.contract.status import call_status
from toolview.render import bodies
from toolview.render.bodies import *  # noqa: F403 - re-exported under the names bodies pins
from toolview.render.bodies import (
    AbortedBody,
    Body,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    KindBody,
    PendingBody,
)
from toolview.render.call_header import call_header
from toolview.render.clean import clean_field, shown_output
from toolview.render.error_lead import holds_text
from toolview.render.jsonview import args_preview
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.notes import call_notes
from toolview.render.receipt import Receipt, view_receipt
from toolview.render.stopped import output_amount
from toolview.render.subagent import ARG_KEYS, sub_agent
from toolview.safety import cut_stack_trace

# The body shapes are re-exported from the one list ``bodies`` pins, so that
# ``toolview.render.view`` stays the one import a surface needs.
__all__ = ["fallback_for", "view_entry"]
__all__ += bodies.__all__

_NAME_CHARS = 200
_REASON_CHARS = 300


def view_entry(
    entry: CallEntry, thread: Thread, limits: Limits = DEFAULT_LIMITS, level: int = 0
) -> CallView | Receipt:
    """Decide how ``entry`` (a call of ``thread``) reads on every surface.

    ``level``: how deep ``thread`` is (0: the thread itself, 1: a sub-agent's…);
    a call that ran a sub-agent carries its view (``CallView.sub``), cut by depth.
    """
    state = thread.state(entry)
    notes = call_notes(entry)
    if state == "refused":
        assert isinstance(entry.result, ToolRefused)  # the table's only way into "refused"
        return view_receipt(entry, entry.result, limits, notes)
    status = call_status(entry, state)
    assert status != "refused"  # only a refused call counts as refused: its receipt, above
    view = _view_call(entry, state, status, thread, limits, notes)
    child = thread.child(entry.tool_call_id)
    if child is None:
        return view
    sub = sub_agent(entry, child, limits, level + 1, view_entry)
    header = view.header
    if entry.call is not None and sub.cut is None:  # the sub-agent's view says these
        args = {k: v for k, v in entry.call.args.items() if k not in ARG_KEYS}
        header = replace(header, args=args_preview(args, limits) if args else None)
    return replace(view, header=header, sub=sub)


def _view_call(
    entry: CallEntry,
    state: CallState,
    status: DisplayStatus,
    thread: Thread,
    limits: Limits,
    notes: tuple[str, ...],
) -> CallView:
    """The generic renderer's header and body for a call that was not refused.

    ``status`` is ``call_status``'s, the one every count and page reads: the
    view never derives it from the body it draws.
    """
    body = _body(entry, state, _envelope_of(entry.result), thread, limits)
    kind_body = body.kind if isinstance(body, ErrorBody) else _as_kind(body)
    header = call_header(entry, status, kind_body, limits)
    result = entry.result
    stored = result.stored if isinstance(result, ToolResult) else None
    whole = stored.whole if isinstance(stored, StoredOutput) else None
    call_id = clean_field(entry.tool_call_id, _NAME_CHARS)
    return CallView(call_id, state, header, body, notes, stored_whole=whole)


def fallback_for(body: KindBody, note: str) -> FallbackBody:
    """The fallback for a kind body a surface cannot render: its text and ``note``."""
    return _fallback(body.text, body.limits, note, body.truncated)


def _body(
    entry: CallEntry, state: CallState, envelope: Envelope | None, thread: Thread, limits: Limits
) -> Body:
    result = entry.result
    if state in IN_FLIGHT:  # running, or waiting for a person (its header says which)
        partial = result.text if isinstance(result, ToolResult) and result.text else None
        return PendingBody(shown_output(partial, limits) if partial else None)
    if state == "aborted":
        return _aborted(entry, thread, limits)
    assert isinstance(result, ToolResult)  # pending/aborted cover a missing result
    if state == "error":
        return _error(result, envelope, limits)
    if entry.descriptor_error is not None:
        note = f"malformed descriptor ({entry.descriptor_error})"
        return _fallback(result.text, limits, note, None)
    return _done(result, envelope, limits)


def _aborted(entry: CallEntry, thread: Thread, limits: Limits) -> AbortedBody:
    """Why the run ended, and the last partial output kept (its tail, as while running)."""
    reason = thread.run_reason(entry)
    cleaned = clean_field(reason, _REASON_CHARS, "space") if reason is not None else None
    result = entry.result
    if not isinstance(result, ToolResult) or not result.text:
        return AbortedBody(thread.run_outcome(entry), cleaned)
    window = shown_output(result.text, limits)
    return AbortedBody(thread.run_outcome(entry), cleaned, window, output_amount(result))


def _error(result: ToolResult, envelope: Envelope | None, limits: Limits) -> ErrorBody:
    """The error's message and, when its descriptor validates, its kind body too.

    Invalid props add no note here (the error's text says what went wrong), but
    the descriptor's truncation is kept either way: cut error output must say so.
    The message leads the kind body when that body does not already show it.
    """
    code = envelope.error_code if envelope is not None else None
    message = envelope.summary if envelope is not None else None
    raw = message if isinstance(message, str) and message else cut_stack_trace(result.text)
    window = shown_output(raw or "(no error message)", limits)
    kind: KindBody | None = None
    descriptor = result.descriptor
    if isinstance(descriptor, Descriptor):
        with suppress(PropsError):
            kind = _kind_body(descriptor, result.text, limits)
    return ErrorBody(
        window,
        clean_field(code, _NAME_CHARS) if isinstance(code, str) else None,
        _truncation(descriptor),
        kind,
        lead=kind is not None and not holds_text(kind.props, raw),
    )


def _done(result: ToolResult, envelope: Envelope | None, limits: Limits) -> Body:
    descriptor = result.descriptor
    if isinstance(descriptor, Descriptor) and descriptor.kind == TEXT_KIND:  # text, and its cut
        return _fallback(result.text, limits, None, _truncation(descriptor))
    if isinstance(descriptor, Descriptor):
        try:
            return _kind_body(descriptor, result.text, limits)
        except PropsError as exc:
            note = f"props invalid for kind '{descriptor.kind}': {exc}"
            return _fallback(result.text, limits, note, _truncation(descriptor))
    if envelope is not None:
        return KindBody("envelope", envelope, result.text, limits)
    if not result.text or result.text.isspace():  # no copy of a 100 MB text
        return EmptyBody()
    return _fallback(result.text, limits, None, None)


def _as_kind(body: Body) -> KindBody | None:
    return body if isinstance(body, KindBody) else None


def _kind_body(descriptor: Descriptor, text: str, limits: Limits) -> KindBody:
    """The descriptor's kind with its props validated (raises ``PropsError``)."""
    props = validate_props(descriptor.kind, descriptor.props)
    return KindBody(descriptor.kind, props, text, limits, _truncation(descriptor))


def _truncation(descriptor: Descriptor | object) -> Truncation | None:
    truncated = descriptor.truncated if isinstance(descriptor, Descriptor) else None
    return truncated if isinstance(truncated, Truncation) else None


def _fallback(
    text: str, limits: Limits, note: str | None, truncated: Truncation | None
) -> FallbackBody:
    shown = shown_output(text if text and not text.isspace() else "(no output)", limits, "head")
    return FallbackBody(
        shown, clean_field(note, limits.max_args_chars, "space") if note else None, truncated
    )


def _envelope_of(result: ToolResult | ToolRefused | None) -> Envelope | None:
    """The result's envelope: from its text, only when it has no descriptor."""
    if not isinstance(result, ToolResult) or isinstance(result.descriptor, Descriptor):
        return None
    return parse_envelope(result.text)
