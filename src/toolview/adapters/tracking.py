"""``CallTracker``: which calls a recorder has seen opened and closed.

Why an adapter needs it: a tool may close its own call before the framework
hands the adapter its return value — a shell tool whose ``CommandRunner``
streams into the call ends it with the shell result — and a second final
result would be kept as an ignored duplicate. The tracker watches the
recorder (``Recorder.add_watcher``: on the caller's thread, at once, by the
caller's own ids), so it sees every observation whoever recorded it, before
the recorder's thread has redacted and folded it. Whether a call is
final is the call ledger's (``contract.ledger``, the fold ``Thread`` reads),
never decided here.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Protocol

from toolview.contract import (
    FINAL_STATES,
    Observation,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
)
from toolview.contract.call_state import IllegalTransition, result_event
from toolview.contract.ledger import Ledger

__all__ = ["CallTracker", "SinkOwner", "shielded"]


@contextlib.contextmanager
def shielded(what: str) -> Iterator[None]:
    """Recording never breaks the agent: a failure to record is said on stderr, and the run goes on.

    Why: an adapter runs inside someone else's loop, on values it did not
    choose; the agent's own exceptions are never caught here, only the
    adapter's.
    """
    try:
        yield
    except Exception as exc:
        print(f"toolview: could not record {what}: {type(exc).__name__}: {exc}", file=sys.stderr)


class SinkOwner(Protocol):
    """What the tracker needs of a recorder: to be shown its observations as they come."""

    def add_watcher(self, watcher: Callable[[Observation], None]) -> None: ...


class CallTracker:
    """Call ids seen in a ``tool-call``, and those closed by a final result or refusal."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # the calls by their run-less state: a run's end does not close a call for an adapter
        self._ledger = Ledger()

    @classmethod
    def on(cls, recorder: SinkOwner) -> CallTracker:
        """The tracker fed by ``recorder``: one per recorder, however many adapters it hands out.

        Why one: a second run through a new adapter must still know the ids
        the first used (a ``CodeAgent`` numbers its calls afresh each run).
        """
        with _TRACKERS_LOCK:
            tracker = _TRACKERS.get(recorder)
            if tracker is None:
                tracker = _TRACKERS[recorder] = cls()
                recorder.add_watcher(tracker)
        return tracker

    def __call__(self, observation: Observation) -> None:
        call_id = getattr(observation, "tool_call_id", None)
        if not isinstance(call_id, str):
            return
        with self._lock:
            if isinstance(observation, ToolCall):
                self._ledger.open(call_id)
            elif isinstance(observation, ToolWaiting | ToolDecision):
                with contextlib.suppress(IllegalTransition, KeyError):  # the thread notes it
                    if isinstance(observation, ToolWaiting):
                        self._ledger.result(call_id, "asked")
                    else:
                        self._ledger.decide(call_id)
            elif isinstance(observation, ToolRefused | ToolResult):
                event = result_event(observation)
                if call_id in self._ledger or event != "partial":
                    with contextlib.suppress(IllegalTransition):  # a second final: the first stands
                        self._ledger.result(call_id, event)

    def seen(self, call_id: str) -> bool:
        """Whether a ``tool-call`` (or a final result) for ``call_id`` was recorded."""
        with self._lock:
            return call_id in self._ledger

    def is_open(self, call_id: str) -> bool:
        """Whether ``call_id`` was called and has no final result yet."""
        with self._lock:
            return call_id in self._ledger and self._ledger.state(call_id) not in FINAL_STATES

    def is_waiting(self, call_id: str) -> bool:
        """Whether ``call_id`` waits for a person (asked, not yet decided nor settled)."""
        with self._lock:
            return call_id in self._ledger and self._ledger.state(call_id) == "needs_input"

    def open_calls(self) -> list[str]:
        """The calls still open, in the order they were called."""
        with self._lock:
            return self._ledger.unsettled(None)


_TRACKERS: weakref.WeakKeyDictionary[SinkOwner, CallTracker] = weakref.WeakKeyDictionary()
_TRACKERS_LOCK = threading.Lock()
