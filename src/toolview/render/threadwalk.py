"""The one walk over a thread that every surface's layout shares.

Each entry becomes one part of the surface's output type — a call through the
generic renderer (a refusal as its receipt), a message, a note — and a thread
of several calls ends with its summary. Deciding views, counting them for the
summary and keeping the order happen here once; a surface only says how each
part looks. ``PartWalker`` is the same walk one entry at a time, keeping only
the summary's counts, so a thread streamed entry by entry (``render.stream``)
is drawn exactly as the whole thread would be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from toolview.contract import CallEntry, Entry, MessageEntry, NoteEntry, Thread
from toolview.render.bodies import CallView
from toolview.render.limits import Limits
from toolview.render.notes import ignored_note
from toolview.render.receipt import Receipt
from toolview.render.summary import Summary, SummaryKey, summary_key, summary_of, token_totals
from toolview.render.view import view_entry

__all__ = ["PartWalker", "ThreadParts", "walk_thread"]

T = TypeVar("T")


@dataclass(frozen=True)
class ThreadParts(Generic[T]):
    """How one surface draws each kind of entry, and the closing summary."""

    call: Callable[[CallView | Receipt, CallEntry], T]
    message: Callable[[MessageEntry], T]
    note: Callable[[NoteEntry], T]
    summary: Callable[[Summary], T]


def walk_thread(thread: Thread, limits: Limits, parts: ThreadParts[T]) -> list[T]:
    """One part per entry, in thread order, then the summary when there is one."""
    walker = PartWalker(thread, limits, parts)
    out = [walker.part(entry) for entry in thread.entries]
    summary = walker.summary()
    return out if summary is None else [*out, summary]


class PartWalker(Generic[T]):
    """The walk, one entry at a time: each call's view is decided once and counted.

    Why a class: a stream draws an entry and then forgets it, so the summary
    cannot be built from every view at the end; it is built from the counts.
    """

    def __init__(self, thread: Thread, limits: Limits, parts: ThreadParts[T]) -> None:
        self._thread, self._limits, self._parts = thread, limits, parts
        self._counts: Counter[SummaryKey] = Counter()

    def part(self, entry: Entry) -> T:
        """The part for ``entry`` (a call of the walker's thread, a message or a note)."""
        if isinstance(entry, CallEntry):
            view = view_entry(entry, self._thread, self._limits)
            self._counts[summary_key(view)] += 1
            return self._parts.call(view, entry)
        if isinstance(entry, MessageEntry):
            return self._parts.message(entry)
        if entry.late is not None:  # a result for a call drawn and released: worded as on a call
            entry = NoteEntry(entry.text + ignored_note(entry.late))
        return self._parts.note(entry)

    def summary(self) -> T | None:
        """The closing summary of every call drawn so far, or ``None`` below two calls."""
        thread = self._thread
        summary = summary_of(
            self._counts, thread.span.ms, token_totals(thread.usage), thread.counts()
        )
        return None if summary is None else self._parts.summary(summary)
