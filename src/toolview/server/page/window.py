"""The live page's window: the last calls of a thread, and more of them on demand.

Why: a 5,000-call thread drawn whole was 224,000 DOM nodes and 16.8 s to open
in Chromium. The page now draws its last ``PAGE_CALLS`` calls (a thread of
at most that many, whole; 60: the mixed calls of ``bench/page_scale.py`` are
~270 nodes each, and 100 of them, 27,500 nodes, opened in 0.7-1.0 s where the
goal is 20,000 nodes and 0.5 s) behind a ``<button class="tv-load-more">``, and the
live script asks ``GET /api/threads/{id}/window?before=&count=`` for earlier
calls (their markup, the same pieces the page is made of, ``server.page.pieces.markup``)
as the reader scrolls up, clicks, or jumps to a search match.

Windows count calls, the thread's own (a sub-agent's are inside their call):
a window of calls ``[first, stop)`` holds the entries from the ``first`` call
(from the thread's start when ``first`` is 0) up to the ``stop`` call (to the
thread's end when ``stop`` is past the last), so the messages between calls
go with the call after them and every entry is in exactly one window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import CallEntry, Thread
from toolview.safety import escape_html

__all__ = ["PAGE_CALLS", "CallWindow", "load_more"]

PAGE_CALLS: Final = 60


@dataclass(frozen=True)
class CallWindow:
    """Calls ``[start, stop)`` of a thread; ``last``: its last calls, to the end."""

    start: int = 0
    stop: int | None = None
    last: int | None = None

    def entries(self, thread: Thread) -> tuple[int, int, int]:
        """The index of the first call, and the entry range ``[start, stop)`` the window holds."""
        positions = [i for i, e in enumerate(thread.entries) if isinstance(e, CallEntry)]
        calls = len(positions)
        first = max(0, calls - self.last) if self.last is not None else min(self.start, calls)
        begin = 0 if first == 0 else positions[first] if first < calls else len(thread.entries)
        stop = calls if self.stop is None else max(first, min(self.stop, calls))
        end = len(thread.entries) if stop >= calls else positions[stop]
        return first, begin, end


def load_more(first: int) -> str:
    """The button that loads the ``first`` calls before the window (nothing when there are none)."""
    if first <= 0:
        return ""
    calls = f"{first} earlier call{'' if first == 1 else 's'}"
    return (
        f'<button type="button" class="tv-load-more" data-before="{first}">'
        f"{escape_html(calls)} — load more</button>"
    )
