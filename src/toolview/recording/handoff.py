"""``Handoff``: what the agent's threads record, worked on by one background thread.

Why: redacting, folding into the thread, writing the record file, handing to
the publisher and drawing the live view all run Python under the interpreter
lock; on the agent's thread they made every recorded call slower (issue 23).
The agent's thread now only appends to a queue (``put``) and goes on; one
daemon thread takes everything queued at once and hands it, in the order it
was put, to ``work``.

Why paced: a worker woken for every observation takes the interpreter lock
from the agent as often; it works in batches at most every ``PACE`` seconds
(a live view ``PACE`` late is still live), unless someone waits (``flush``).

Nothing is lost: ``flush`` returns once everything put before it was worked
on; ``close`` flushes and stops the thread (the recorder's ``end`` does); an
interpreter exiting with a worker still running closes it first (``atexit``).
"""

from __future__ import annotations

import atexit
import sys
import threading
from collections.abc import Callable
from typing import Final, Generic, TypeVar

__all__ = ["PACE", "Handoff"]

PACE: Final = 0.02
"""Seconds between two batches, unless a ``flush`` or ``close`` waits for them."""

T = TypeVar("T")


class Handoff(Generic[T]):
    """A FIFO from any thread to ``work`` on one background thread; see the module docstring."""

    def __init__(self, work: Callable[[list[T]], None], name: str = "toolview-recorder") -> None:
        self._work = work
        self._name = name
        self._cond = threading.Condition()
        self._queued: list[T] = []
        self._put = self._done = 0  # items put, items worked on
        self._urgent = False
        self._thread: threading.Thread | None = None  # the one worker taking from the queue

    def put(self, item: T) -> None:
        """Queue ``item`` (a thread starts if none runs); never waits for the work."""
        with self._cond:
            self._queued.append(item)
            self._put += 1
            if self._thread is None:
                self._start()
            elif len(self._queued) == 1:
                self._cond.notify_all()

    def flush(self) -> None:
        """Return once everything put so far has been worked on."""
        with self._cond:
            target = self._put
            if self._done >= target or threading.current_thread() is self._thread:
                return
            self._urgent = True
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._done >= target)

    def close(self) -> None:
        """Work on what is queued, then stop the thread (a later ``put`` starts another)."""
        self.flush()
        with self._cond:
            thread, self._thread = self._thread, None
            if self._queued:  # put meanwhile: a new worker takes it (the old one takes no more)
                self._start()
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            atexit.unregister(self.close)
            thread.join()

    def _start(self) -> None:
        """A new worker (lock held); an exiting interpreter closes, so flushes, the handoff."""
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        atexit.register(self.close)

    def _run(self) -> None:
        """The thread: take all that is queued, work on it, pause ``PACE``; until replaced."""
        me = threading.current_thread()
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queued or self._thread is not me)
                if self._thread is not me:
                    return
                batch, self._queued = self._queued, []
            try:
                self._work(batch)
            except Exception as exc:  # said, and the thread goes on: flush must never hang
                print(f"toolview: recording failed: {exc!r}", file=sys.stderr)
            finally:
                with self._cond:
                    self._done += len(batch)
                    self._cond.notify_all()
                    if not self._urgent:
                        self._cond.wait_for(lambda: self._urgent or self._thread is not me, PACE)
                    self._urgent = False
