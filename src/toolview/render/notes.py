"""A call's own notes: what every surface shows under it, besides its body.

A call that waited for a person earns two: what it asked (its question, or
the fields of the answer it asked for) and, once decided, the receipt — what
was decided, by whom, when, from where, and the message. The status itself
(``needs_input``) is the display table's, drawn like every status.

Another earns a note: a final result (or a refusal) that arrived after
the call was already final. The call-state table makes it illegal — the first
stands — so the ``Thread`` keeps it on the call instead of replacing the first
or dropping it (``CallEntry.ignored``); here it is put in words, cleaned and
bounded, once for every surface. A flood of them is one line per kept result
and one count for the rest.
"""

from __future__ import annotations

from typing import Final

import msgspec

from toolview.contract import CallEntry, ToolDecision, ToolRefused, ToolResult, ToolWaiting
from toolview.render.clean import clean_field
from toolview.render.stored_note import stored_note

__all__ = ["NOTE_PREVIEW_CHARS", "asked_note", "call_notes", "decision_note", "ignored_note"]

NOTE_PREVIEW_CHARS: Final = 120
"""How much of an ignored result's text (or refusal's reason) a note shows."""


_ORPHAN: Final = {
    "unseen": "a sub-agent's observations name this call, which the thread never saw",
    "late": "a sub-agent's observations for this call came after the call was drawn",
}


def call_notes(entry: CallEntry) -> tuple[str, ...]:
    """The cleaned notes of ``entry``, in arrival order (none for almost every call)."""
    notes = [_ORPHAN[entry.orphan]] if entry.orphan is not None else []
    if entry.waiting is not None:
        notes.append(asked_note(entry.waiting))
    if entry.decision is not None:
        notes.append(decision_note(entry.decision))
    if isinstance(entry.result, ToolResult) and entry.result.stored is not msgspec.UNSET:
        notes.append(stored_note(entry.result.stored))
    notes += [ignored_note(result) for result in entry.ignored]
    more = entry.ignored_total - len(entry.ignored)
    if more > 0:
        notes.append(f"{more:,} more final result{'' if more == 1 else 's'} ignored the same way")
    return tuple(notes)


_DECIDED: Final = {"allow": "Allowed", "deny": "Denied", "answer": "Answered"}


def asked_note(waiting: ToolWaiting) -> str:
    """``asked a person: <the agent's question>`` (and the answer's fields, if a form is asked)."""
    question = waiting.question if isinstance(waiting.question, str) else ""
    shown = clean_field(question, NOTE_PREVIEW_CHARS, "space").strip()
    note = f"asked a person: {shown or 'may this call run?'}"
    schema = waiting.schema if isinstance(waiting.schema, dict) else {}
    fields = schema.get("properties")
    if isinstance(fields, dict) and fields:
        names = clean_field(", ".join(map(str, fields)), NOTE_PREVIEW_CHARS, "space")
        note += f" (an answer with: {names})"
    return note


def decision_note(decision: ToolDecision) -> str:
    """The receipt: ``Denied by laptop at 2026-…Z from 127.0.0.1: not in prod``."""
    parts = [f"{_DECIDED[decision.decision]} by {clean_field(decision.by, 80, 'space')}"]
    if isinstance(decision.at, str):
        parts.append(f"at {decision.at}")
    if isinstance(decision.via, str) and decision.via:
        parts.append(f"from {clean_field(decision.via, 80, 'space')}")
    note = " ".join(parts)
    if isinstance(decision.message, str) and decision.message.strip():
        note += f": {clean_field(decision.message, NOTE_PREVIEW_CHARS, 'space').strip()}"
    return note


def ignored_note(result: ToolResult | ToolRefused) -> str:
    """``a second error result came after this call was final; ignored, the first stands: …``."""
    if isinstance(result, ToolRefused):
        what, shown = "a refusal", result.reason
    else:
        what = "a second error result" if result.is_error else "a second result"
        shown = result.text
    preview = clean_field(shown, NOTE_PREVIEW_CHARS, "space").strip()
    return (
        f"{what} came after this call was final; ignored, the first stands: "
        f"{preview or '(no text)'}"
    )
