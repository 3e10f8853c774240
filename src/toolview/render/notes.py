"""A call's own notes: what every surface shows under it, besides its body.

Today one thing earns a note: a final result (or a refusal) that arrived after
the call was already final. The call-state table makes it illegal — the first
stands — so the ``Thread`` keeps it on the call instead of replacing the first
or dropping it (``CallEntry.ignored``); here it is put in words, cleaned and
bounded, once for every surface. A flood of them is one line per kept result
and one count for the rest.
"""

from __future__ import annotations

from typing import Final

from toolview.contract import CallEntry, ToolRefused, ToolResult
from toolview.render.clean import clean_field

__all__ = ["NOTE_PREVIEW_CHARS", "call_notes", "ignored_note"]

NOTE_PREVIEW_CHARS: Final = 120
"""How much of an ignored result's text (or refusal's reason) a note shows."""


_ORPHAN: Final = {
    "unseen": "a sub-agent's observations name this call, which the thread never saw",
    "late": "a sub-agent's observations for this call came after the call was drawn",
}


def call_notes(entry: CallEntry) -> tuple[str, ...]:
    """The cleaned notes of ``entry``, in arrival order (none for almost every call)."""
    notes = [_ORPHAN[entry.orphan]] if entry.orphan is not None else []
    notes += [ignored_note(result) for result in entry.ignored]
    more = entry.ignored_total - len(entry.ignored)
    if more > 0:
        notes.append(f"{more:,} more final result{'' if more == 1 else 's'} ignored the same way")
    return tuple(notes)


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
