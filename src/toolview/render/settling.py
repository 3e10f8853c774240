"""Which entries of a growing thread just became final: what a follower prints, once.

Why in the render core: ``toolview show --follow`` and ``capture(live=True)``
both print each entry as it settles (a message at once, a call when its result
or refusal arrives or its run ends without one, a call again when it ignored a
second final result, to show the note) — one rule, from ``Thread.state``.
An entry is drawn as a thread of its own without the thread's tokens and
time, which would give each its own summary ("── 0 calls" under a message):
the thread's one summary is ``summary()``, drawn when the follower ends.
"""

from __future__ import annotations

import dataclasses

from toolview.contract import CallEntry, Entry, Observation, Thread, ToolRefused, ToolResult
from toolview.contract.call_state import IN_FLIGHT
from toolview.contract.moments import TimeSpan
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.summary import Summary, thread_summary

__all__ = ["Settling"]


class Settling:
    """A thread that says which entries just became final (each once; a call again if it
    ignored a second final result, to show the note)."""

    def __init__(self) -> None:
        self.thread = Thread()
        self._seen = 0
        self._open: list[CallEntry] = []

    def add(self, observation: Observation, descriptor_error: str | None = None) -> list[Entry]:
        """Apply one observation; return the entries it made final, in thread order."""
        noted = self._call_of(observation)
        ignored = noted.ignored_total if noted is not None else 0
        self.thread.add(observation, descriptor_error)
        return self._settled(noted, ignored)

    def note(self, text: str) -> list[Entry]:
        """A visible note (a line that could not be read); return what is final now."""
        self.thread.note(text)
        return self._settled(None, 0)

    def still_open(self) -> list[Entry]:
        """The calls not final yet, in thread order (drawn as they stand at the end)."""
        return list(self._open)

    def _settled(self, noted: CallEntry | None, ignored: int) -> list[Entry]:
        fresh = self.thread.entries[self._seen :]
        self._seen = len(self.thread.entries)
        candidates: list[Entry] = [*self._open, *fresh]
        self._open = [e for e in candidates if isinstance(e, CallEntry) and self._pending(e)]
        final = [e for e in candidates if not isinstance(e, CallEntry) or not self._pending(e)]
        if (
            noted is not None
            and noted.ignored_total > ignored
            and all(e is not noted for e in final)
        ):
            final.append(noted)  # already shown: again, with the note of what it ignored
        return final

    def view(self, entry: Entry) -> Thread:
        """A thread showing ``entry`` alone, with the run state the whole thread knows; no
        tokens nor time span, so no summary of its own."""
        return dataclasses.replace(self.thread, entries=[entry], usage=[], span=TimeSpan())

    def summary(self, limits: Limits = DEFAULT_LIMITS) -> Summary | None:
        """The whole thread's summary (``render.summary``), for the end of the follow."""
        return thread_summary(self.thread, limits)

    def _call_of(self, observation: Observation) -> CallEntry | None:
        """The call a result is for, if the thread has it already (it may ignore the result)."""
        if isinstance(observation, ToolResult | ToolRefused):
            return self.thread.call(observation.tool_call_id)
        return None

    def _pending(self, entry: CallEntry) -> bool:
        """Still waiting: neither a final result, a refusal, nor its run's end came."""
        return self.thread.state(entry) in IN_FLIGHT
