"""``Recorder``: one run of any agent loop, as observations in a ``Thread``.

Why so little on the caller's thread: it is the agent's. A method stamps the
moment, notes the caller's ids and queues the observation (``recording.handoff``);
redacting, folding into the thread and every sink (record file, publisher, live
view) run on the recorder's own thread (``recording.folding``), in the order the
observations were queued — frameworks call from worker threads and event loops at once, and one
lock around the queueing keeps that order. Reading the thread (``thread``,
``call_entry``, ``end``) first waits for what is queued. Nothing a caller passes
makes a method raise into the agent: a bad value becomes a visible fallback
(``recording.values``), and every observation is redacted before the thread or
a sink sees it, so nothing unredacted leaves the process.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from types import TracebackType
from typing import Self

import msgspec

from toolview.contract import (
    CallEntry,
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)
from toolview.recording.adapter_methods import AdapterMethods
from toolview.recording.folding import Folding, Sink
from toolview.recording.handoff import Handoff
from toolview.recording.redaction import REDACTOR
from toolview.recording.stream import OutputStream
from toolview.recording.values import (
    call_args,
    clean_id,
    error_text,
    result_parts,
    run_end,
    tokens,
)
from toolview.recording.waits import Waits

__all__ = ["Recorder", "Sink"]


class Recorder(Waits, AdapterMethods):
    """Records one run: ``call``/``result``/``error``/``waiting``/``decided``/… inside ``with``."""

    def __init__(self, *, title: str | None = None, thread_id: str | None = None) -> None:
        self.title = title
        self.thread_id = clean_id(thread_id, "") or f"capture-{uuid.uuid4().hex[:12]}"
        self.run_id = f"run-{uuid.uuid4().hex[:12]}"
        self._lock = threading.RLock()  # the callers' side: ids and the queue's order
        self._folding = Folding()  # the recorder's thread's side: thread and sinks
        self._handoff: Handoff[tuple[datetime, Observation]] = Handoff(self._folding.fold)
        # the name and args of each call until its final result: what describes the result
        self._calls: dict[str, tuple[str, Mapping[str, object]]] = {}
        self._names: dict[str, str] = {}
        self._watchers: list[Sink] = []
        self._started = self._ended = False

    @property
    def thread(self) -> Thread:
        """The thread so far: everything recorded before this read is in it."""
        self._handoff.flush()
        return self._folding.thread

    def add_sink(self, sink: Sink) -> None:
        """Also hand every observation to ``sink`` (recording, publishing, drawing)."""
        self._folding.add_sink(sink)

    def add_watcher(self, watcher: Sink) -> None:
        """Also show ``watcher`` every observation at once, on the caller's thread, as the
        caller gave it (not yet redacted): an adapter's own bookkeeping (which calls it
        saw open and close, ``adapters.tracking``) that must be current when the caller
        asks. It must be quick and keep nothing beyond the process."""
        with self._lock:
            self._watchers.append(watcher)

    def emit(self, observation: Observation) -> None:
        """Queue ``observation`` (stamped with now unless it says when) for the recorder's
        thread, which redacts it, adds it to the thread and hands it to every sink."""
        with self._lock:
            self._track(observation)  # by the caller's own ids: ``result(id)`` names them so
            for watcher in self._watchers:
                watcher(observation)
            self._handoff.put((datetime.now(UTC), observation))

    def _track(self, observation: Observation) -> None:
        if isinstance(observation, ToolCall):
            self._names[observation.tool_call_id] = observation.tool_name
            self._calls[observation.tool_call_id] = (observation.tool_name, observation.args)
        elif isinstance(observation, ToolRefused) or (
            isinstance(observation, ToolResult) and observation.complete
        ):
            self._calls.pop(observation.tool_call_id, None)

    def call(self, id: str, name: str, args: Mapping[str, object] | None = None) -> None:
        """A tool was called with ``args``."""
        call_id, tool = clean_id(id, "call"), clean_id(name, "tool")
        self.emit(ToolCall(tool_call_id=call_id, tool_name=tool, args=call_args(args)))

    def call_entry(self, id: str) -> CallEntry | None:
        """The thread's entry for the call the caller named ``id``, if it has one.

        The thread knows an id holding a secret by its opaque id (``recording.redaction``),
        so an adapter asking "is this call final?" asks here, by its own id.
        """
        thread = self.thread
        with self._folding.lock:
            return thread.call(REDACTOR.id(clean_id(id, "call")))

    def tool_name(self, id: str) -> str:
        """The name ``call`` gave ``id`` (``tool`` for a call never seen)."""
        with self._lock:
            return self._names.get(clean_id(id, "call"), "tool")

    def result(
        self,
        id: str,
        value: object,
        *,
        is_error: bool = False,
        descriptor: Descriptor | None = None,
        complete: bool = True,
    ) -> None:
        """The call's result: ``value`` described (``toolview.describe``) unless
        ``descriptor`` says how to show it. ``complete=False``: output so far."""
        call_id = clean_id(id, "call")
        with self._lock:
            name, args = self._calls.get(call_id, (self.tool_name(call_id), {}))
        text, found = result_parts(value, descriptor, name, args)
        self.emit(
            ToolResult(
                tool_call_id=call_id,
                tool_name=name,
                text=text,
                complete=bool(complete),
                is_error=bool(is_error),
                descriptor=found,
            )
        )

    def error(self, id: str, exc: BaseException | str) -> None:
        """The call failed: its result is the error's type and message (no traceback)."""
        self.result(id, error_text(exc), is_error=True)

    def refused(self, id: str, reason: str) -> None:
        """A guard refused the call before it ran."""
        call_id = clean_id(id, "call")
        name = self.tool_name(call_id)
        self.emit(ToolRefused(tool_call_id=call_id, tool_name=name, reason=clean_id(reason, "")))

    def stream(self, id: str) -> OutputStream:
        """A writer for the running call ``id``: partial results with accumulated text."""
        call_id = clean_id(id, "call")
        return OutputStream(lambda text: self.result(call_id, text, complete=False))

    def message(self, role: str, text: str) -> None:
        """User or assistant text (``thinking``: reasoning) in the conversation."""
        kind = role if role in ("user", "assistant", "thinking") else "assistant"
        self.emit(Message(role=kind, text=clean_id(text, "")))  # type: ignore[arg-type]

    def usage(
        self,
        *,
        model: str,
        input_tokens: int,
        output_tokens: int,
        cache_read_tokens: int | None = None,
        cache_write_tokens: int | None = None,
    ) -> None:
        """The tokens one model turn took (a count that is not one: 0)."""
        self.emit(
            Usage(
                model=clean_id(model, "model"),
                input_tokens=tokens(input_tokens),
                output_tokens=tokens(output_tokens),
                cache_read_tokens=tokens(cache_read_tokens, msgspec.UNSET),
                cache_write_tokens=tokens(cache_write_tokens, msgspec.UNSET),
                run_id=self.run_id,
            )
        )

    def start(self) -> None:
        """Open the run (``run-started``); ``with`` does it."""
        with self._lock:
            if not self._started:
                self._started = True
                self.emit(RunStarted(run_id=self.run_id))

    def end(self, exc: BaseException | None = None) -> None:
        """Close the run (``run-ended``): completed, or the exception's type and message;
        a call still without a result is then aborted, with that reason. Returns once
        every observation reached the thread and the sinks."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            outcome, reason = run_end(exc, self.thread.open_calls())  # the ledger's count
            self.emit(RunEnded(run_id=self.run_id, outcome=outcome, reason=reason))
        self._handoff.close()  # everything folded and handed on; the recorder's thread stops

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.end(exc)

    async def __aenter__(self) -> Self:
        return self.__enter__()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.end(exc)
