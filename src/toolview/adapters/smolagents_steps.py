"""One smolagents step's calls: opened by ``ToolCall``, closed by ``ToolOutput`` or the step's end.

Why pairing by the step: smolagents runs a step's calls in parallel and,
when one raises, ends the step with only that error (``AgentToolExecutionError``
names the tool and its arguments; an argument check's error names neither)
and drops the results of the others. So each call the step leaves open is
closed here: the one the error names, or the only one there is, as that
error; the others as results smolagents never reported; and when the error
names no call among several, each says the step failed and with what.
Nothing framework-specific is imported: the events are read by attribute.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolview.adapters.tracking import CallTracker

if TYPE_CHECKING:
    from toolview.recording import Recorder

__all__ = ["DROPPED", "UNNAMED", "PendingCalls"]

DROPPED = "no result: another call of this step failed, and smolagents dropped this one's result"
UNNAMED = "this step failed, and smolagents does not say which call: "


@dataclass(frozen=True)
class Pending:
    """One open call: its id, tool and arguments as the model sent them."""

    id: str
    name: str
    arguments: object


class PendingCalls:
    """The open calls of the step under way, keyed by their ``ToolCall`` object."""

    def __init__(self, recorder: Recorder, calls: CallTracker) -> None:
        self._rec = recorder
        self._calls = calls
        self._lock = threading.Lock()
        self._step: dict[int, Pending] = {}

    def open(self, tool_call: Any, identity: str) -> None:
        """A ``ToolCall`` event: the call is recorded and waits for its result."""
        arguments = tool_call.arguments
        pending = Pending(identity, str(tool_call.name), arguments)
        with self._lock:
            self._step[id(tool_call)] = pending
        key = "code" if pending.name == "python_interpreter" else "value"
        args = arguments if isinstance(arguments, Mapping) else {key: arguments}
        self._rec.call(identity, pending.name, args)

    def close(self, tool_call: Any, output: object, observation: str) -> None:
        """A ``ToolOutput`` event: the call's result (its value, else the observation)."""
        with self._lock:
            pending = self._step.pop(id(tool_call), None)
        identity = pending.id if pending is not None else str(tool_call.id)
        if self._calls.is_open(identity):
            self._rec.result(identity, observation if output is None else output)

    def end_step(self, error: BaseException | None, observations: str | None = None) -> None:
        """An ``ActionStep``: every call the step left open is closed, by its error.

        A step without error whose one call is still open is a ``CodeAgent``'s
        (its code runs as a ``python_interpreter`` call with no ``ToolOutput``):
        its result is the step's observations, what the model is shown.
        """
        with self._lock:
            left = [p for p in self._step.values() if self._calls.is_open(p.id)]
            self._step.clear()
        if not left:
            return
        if error is None and observations is not None and len(left) == 1:
            self._rec.result(left[0].id, observations)
            return
        message = str(error) if error is not None else "smolagents reported no result"
        named = named_call(left, message)
        for pending in left:
            if pending is named:
                self._rec.error(pending.id, message)
            elif named is not None:
                self._rec.error(pending.id, DROPPED)
            else:
                self._rec.error(pending.id, UNNAMED + message)

    def abort(self, exc: BaseException) -> None:
        """The run raised: every open call ends with the exception's type and message."""
        with self._lock:
            left = list(self._step.values())
            self._step.clear()
        for pending in left:
            if self._calls.is_open(pending.id):
                self._rec.error(pending.id, exc)

    def find(self, tool: str, arguments: Mapping[str, object] | None) -> str | None:
        """The one open call of ``tool`` (with exactly ``arguments``, when given)."""
        with self._lock:
            fits = [
                p
                for p in self._step.values()
                if p.name == tool and (arguments is None or p.arguments == dict(arguments))
            ]
        return fits[0].id if len(fits) == 1 else None


def named_call(left: list[Pending], message: str) -> Pending | None:
    """The call a step's error is about: the only one, or the one it names."""
    if len(left) == 1:
        return left[0]
    by_name = [p for p in left if f"tool '{p.name}'" in message or f"tool {p.name}," in message]
    if len(by_name) == 1:
        return by_name[0]
    by_args = [p for p in by_name if f"arguments {p.arguments}" in message]
    return by_args[0] if len(by_args) == 1 else None
