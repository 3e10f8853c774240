"""A thread drawn as it arrives: each entry written once it is settled, then forgotten.

Why: a thread of 100,000 calls, or one call of 100 MB, must not be held
whole before the first byte is written. ``ThreadStream`` is fed observations
one at a time (sans-IO: it calls ``write`` with text) and keeps only what can
still change — the calls still open and the entries queued behind them.

Order: THREAD ORDER, as the whole thread is drawn (``walk_thread``), so a
stream of calls that finish is byte for byte the surface's ``render_thread``.
The first entry not yet written is written as soon as it is settled: a
message or a note at once, a call once it is final (done, error, refused).
A call still open (running, or aborted — a late result still stands) holds
back the entries behind it — parallel calls that finish out of order are
still drawn in order — but only up to ``Hold``: past that, the open call is
set aside and the entries behind it go on; a call set aside is written the
moment it becomes final (out of thread order, then), or at the end of input.
At the end, whatever is still open is drawn as the whole thread would draw
it (running, or aborted with its run's reason), then the summary.

Sub-agents: a call that ran one is drawn when it is final and so is every
call of its sub-agent (at any depth), or at the end of input; its sub-agent's
thread is held under it until then and released with it. Memory is bounded
by the calls still open (at any depth), the entries queued behind them, and,
per sub-agent of a call not yet drawn, the entries a surface shows of it
(every one by default, ``Limits.max_sub_entries`` when cut, none past
``Limits.depth``): its other settled entries are only counted
(``Thread(sub_keep=…)``, ``Trimmed``). A sub-agent drawn whole is held until
its call is drawn: memory grows with the largest sub-agent, not the session.

A call is drawn once. If a final result (or the tool-call) for a call already
drawn and released comes later, it is ignored as the call-state table says,
and shown as a note at that point (``Thread.release``).
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Generic, Protocol, TypeVar

from toolview.contract import (
    FINAL_STATES,
    CallEntry,
    Entry,
    Message,
    Observation,
    Thread,
    ToolResult,
)
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.threadwalk import PartWalker, ThreadParts, walk_thread

__all__ = ["HOLD", "Hold", "Settler", "StreamShape", "ThreadStream", "render_whole"]

T = TypeVar("T")


class Settler(Protocol):
    """A stream's writer that may hold text back until the end of input decides it."""

    def __call__(self, text: str) -> None: ...

    def flush(self) -> None:
        """The end of input: write whatever is still held."""


@dataclass(frozen=True)
class StreamShape(Generic[T]):
    """How a surface frames a stream: its parts, how a part becomes text, and what joins them.

    ``settle`` (optional) makes each stream's writer: for text that depends on
    the whole thread (html: whether a long thread's successes are collapsed),
    held back until it is known; ``render_whole`` goes through it too, so a
    stream and the whole thread still write the same bytes.
    """

    parts: ThreadParts[T]
    show: Callable[[T], str]
    opening: str = ""
    separator: str = ""
    closing: str = ""
    settle: Callable[[Callable[[str], None]], Settler] | None = None


@dataclass(frozen=True)
class Hold:
    """How much may wait behind a call still open before it is set aside."""

    entries: int = 1_000
    chars: int = 16 * 1024 * 1024
    """Characters of text (results, messages) that arrived while something waited."""


HOLD: Final = Hold()


def render_whole(thread: Thread, shape: StreamShape[T], limits: Limits = DEFAULT_LIMITS) -> str:
    """The whole thread in ``shape``: what a stream of it writes, in one string."""
    pieces = [shape.show(part) for part in walk_thread(thread, limits, shape.parts)]
    text = shape.opening + shape.separator.join(pieces) + shape.closing
    if shape.settle is None:
        return text
    out: list[str] = []
    settler = shape.settle(out.append)
    settler(text)
    settler.flush()
    return "".join(out)


class ThreadStream(Generic[T]):
    """Feed with ``add`` and ``note``; ``close`` at the end of input writes the rest."""

    def __init__(
        self,
        shape: StreamShape[T],
        write: Callable[[str], None],
        *,
        limits: Limits = DEFAULT_LIMITS,
        hold: Hold = HOLD,
    ) -> None:
        # a sub-agent keeps the entries a surface shows of it; the rest is only counted
        self.thread = Thread(sub_keep=_sub_keep(limits), sub_depth=limits.depth)
        self.entries = 0
        """Entries the thread has had so far, drawn or waiting."""
        self._settler = shape.settle(write) if shape.settle is not None else None
        self._shape, self._hold = shape, hold
        self._write: Callable[[str], None] = self._settler or write
        self._walker = PartWalker(self.thread, limits, shape.parts)
        self._queue: deque[Entry] = deque()
        self._aside: dict[str, CallEntry] = {}  # by id, in thread order
        self._waited = 0
        self._opened = self._drawn = False

    def add(self, observation: Observation, descriptor_error: str | None = None) -> None:
        """Apply one observation, then write every entry it settled."""
        self._open()
        self.thread.add(observation, descriptor_error)
        if self._queue:
            self._waited += _size(observation)
        self._settle(self._call_of(observation))

    def _call_of(self, observation: Observation) -> str | None:
        """The thread's own call ``observation`` changed: its call, or the one its sub-agent
        runs under (a sub-agent's observation settles, or not, the call above it)."""
        key = getattr(observation, "tool_call_id", None)
        mark = observation.parent_call_id
        if not isinstance(mark, str):
            return key
        return self.thread.top_call_id(key if isinstance(key, str) else mark)

    def note(self, text: str) -> None:
        """A visible note at the current position (e.g. a line that could not be read)."""
        self._open()
        self.thread.note(text)
        self._settle()

    def close(self) -> None:
        """Write what is still open or waiting, in thread order, then the summary."""
        self._open()
        self._take()
        for entry in [*self._aside.values(), *self._queue]:
            self._draw(entry)
        self._aside, self._queue = {}, deque()
        summary = self._walker.summary()
        if summary is not None:
            self._piece(self._shape.show(summary))
        if self._shape.closing:
            self._write(self._shape.closing)
        if self._settler is not None:
            self._settler.flush()

    def _settle(self, tool_call_id: str | None = None) -> None:
        """Write what is settled: the call set aside that ``tool_call_id`` finished, then the
        queue's settled head, again and again (an open head goes aside past the hold)."""
        self._take()
        aside = self._aside.get(tool_call_id) if tool_call_id is not None else None
        if aside is not None and self._final(aside):
            del self._aside[aside.tool_call_id]
            self._draw(aside)
        while self._queue:
            head = self._queue[0]
            if isinstance(head, CallEntry) and not self._final(head):
                if not self._over():
                    return
                self._aside[head.tool_call_id] = head  # open too long: what waits goes on
            else:
                self._draw(head)
            self._queue.popleft()
        self._waited = 0

    def _take(self) -> None:
        fresh = self.thread.drain()
        self.entries += len(fresh)
        self._queue.extend(fresh)

    def _over(self) -> bool:
        return len(self._queue) > self._hold.entries or self._waited > self._hold.chars

    def _final(self, entry: CallEntry) -> bool:
        """Final, and so is its sub-agent's every call: nothing can change how it reads."""
        return self.thread.settled(entry)

    def _draw(self, entry: Entry) -> None:
        self._piece(self._shape.show(self._walker.part(entry)))
        if isinstance(entry, CallEntry) and self.thread.state(entry) in FINAL_STATES:
            self.thread.release(entry)

    def _open(self) -> None:
        """The opening (an HTML page's head and stylesheet) goes out with the first input."""
        if not self._opened:
            self._opened = True
            if self._shape.opening:
                self._write(self._shape.opening)

    def _piece(self, text: str) -> None:
        self._write((self._shape.separator if self._drawn else "") + text)
        self._drawn = True


def _sub_keep(limits: Limits) -> int:
    """Entries kept of a sub-agent's thread down to ``Limits.depth``: those shown (one more:
    its first may be the prompt, said above it), or all when every one is drawn."""
    cut = limits.max_sub_entries
    return sys.maxsize if cut is None else cut + 1


def _size(observation: Observation) -> int:
    """What an observation adds to what waits: its text, and one for the observation.

    A partial result adds no text: it replaces its call's output so far (the
    running call's own partials must not push it aside).
    """
    if isinstance(observation, ToolResult) and observation.complete:
        return 1 + len(observation.text)
    return 1 + (len(observation.text) if isinstance(observation, Message) else 0)
