"""The one walk over a thread that every surface's layout shares.

Each entry becomes one part of the surface's output type — a call through the
generic renderer (a refusal as its receipt), a message, a note — and a thread
of several calls ends with its summary. Deciding views, counting them for the
summary and keeping the order happen here once; a surface only says how each
part looks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from toolview.contract import CallEntry, MessageEntry, NoteEntry, Thread
from toolview.render.bodies import CallView
from toolview.render.limits import Limits
from toolview.render.receipt import Receipt
from toolview.render.summary import Summary, summarize
from toolview.render.view import view_entry

__all__ = ["ThreadParts", "walk_thread"]

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
    out: list[T] = []
    views: list[CallView | Receipt] = []
    for entry in thread.entries:
        if isinstance(entry, CallEntry):
            view = view_entry(entry, thread, limits)
            views.append(view)
            out.append(parts.call(view, entry))
        elif isinstance(entry, MessageEntry):
            out.append(parts.message(entry))
        else:
            out.append(parts.note(entry))
    summary = summarize(views)
    return out if summary is None else [*out, parts.summary(summary)]
