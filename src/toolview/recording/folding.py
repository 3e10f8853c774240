"""``Folding``: the recorder's own thread's side — stamp, redact, keep, hand on.

Why apart from ``recording.recorder``: the recorder has two sides that never
run on the same thread. Its methods run on the agent's threads and only queue
(``recording.handoff``); everything here runs on the one background thread
the handoff drives, in queue order, under its own lock — so what the agent's
side may touch and what only the background thread touches stay in two
places. The order matters for safety: an observation is redacted before the
thread or any sink sees it, so nothing unredacted leaves the process.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from datetime import datetime

import msgspec

from toolview.contract import Observation, Thread
from toolview.contract.moments import format_at
from toolview.recording.redaction import redact_observation
from toolview.recording.values import error_text

__all__ = ["Folding", "Sink"]

Sink = Callable[[Observation], None]


class Folding:
    """The recorded thread and its sinks, fed batches on the recorder's thread.

    ``lock`` guards both: a caller reading the thread or adding a sink takes it.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.thread = Thread()
        self._sinks: list[Sink] = []

    def add_sink(self, sink: Sink) -> None:
        """Hand every observation folded from now on to ``sink`` too."""
        with self.lock:
            self._sinks.append(sink)

    def fold(self, batch: list[tuple[datetime, Observation]]) -> None:
        """Each observation stamped (with its queueing moment unless it says when),
        redacted, added to the thread and handed to every sink."""
        with self.lock:
            for moment, observation in batch:
                if isinstance(observation.at, msgspec.UnsetType):
                    observation = msgspec.structs.replace(observation, at=format_at(moment))
                safe = redact_observation(observation)
                self.thread.add(safe)
                self._hand_on(safe)

    def _hand_on(self, safe: Observation) -> None:
        """Every sink gets ``safe``; one that raises is said once and gets no more, since a
        broken file or publisher must never stop the recording or the other sinks."""
        for sink in list(self._sinks):
            try:
                sink(safe)
            except Exception as exc:
                self._sinks.remove(sink)
                print(f"toolview: {sink!r} stopped: {error_text(exc)}", file=sys.stderr)
