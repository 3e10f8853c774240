"""``Recorder``: one run of any agent loop, as observations in a ``Thread``.

Why one lock around everything: frameworks call from worker threads and event
loops at once, and the thread, the open calls and every sink must see the
observations in one order. Nothing a caller passes makes a method raise into
the agent: a bad value becomes a visible fallback (see ``capture.values``).
"""

from __future__ import annotations

import importlib
import threading
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self

import msgspec

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)
from toolview.contract.moments import format_at
from toolview.recording.stream import OutputStream
from toolview.recording.values import call_args, clean_id, error_text, result_parts
from toolview.safety import redact

__all__ = ["Recorder", "Sink"]

Sink = Callable[[Observation], None]


class Recorder:
    """Records one run: ``call``/``result``/``error``/… while inside ``with``."""

    def __init__(self, *, title: str | None = None, thread_id: str | None = None) -> None:
        self.title = title
        self.thread_id = thread_id or f"capture-{uuid.uuid4().hex[:12]}"
        self.run_id = f"run-{uuid.uuid4().hex[:12]}"
        self._lock = threading.RLock()
        self._thread = Thread()
        self._names: dict[str, str] = {}
        self._open: set[str] = set()
        self._sinks: list[Sink] = []
        self._started = False
        self._ended = False

    @property
    def thread(self) -> Thread:
        """The thread so far (read it under no lock: it is replaced, not torn, per add)."""
        return self._thread

    def add_sink(self, sink: Sink) -> None:
        """Also hand every observation to ``sink`` (recording, publishing, drawing)."""
        with self._lock:
            self._sinks.append(sink)

    def emit(self, observation: Observation) -> None:
        """Add ``observation`` (stamped with now unless it says when) and hand it on."""
        if isinstance(observation.at, msgspec.UnsetType):
            observation = msgspec.structs.replace(observation, at=format_at(datetime.now(UTC)))
        with self._lock:
            self._track(observation)
            self._thread.add(observation)
            for sink in self._sinks:
                sink(observation)

    def _track(self, observation: Observation) -> None:
        if isinstance(observation, ToolCall):
            self._names[observation.tool_call_id] = observation.tool_name
            self._open.add(observation.tool_call_id)
        elif isinstance(observation, ToolRefused) or (
            isinstance(observation, ToolResult) and observation.complete
        ):
            self._open.discard(observation.tool_call_id)

    def call(self, id: str, name: str, args: Mapping[str, object] | None = None) -> None:
        """A tool was called with ``args``."""
        call_id, tool = clean_id(id, "call"), clean_id(name, "tool")
        self.emit(ToolCall(tool_call_id=call_id, tool_name=tool, args=call_args(args)))

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
        """The call's result: ``value`` described (see ``toolview.describe``)."""
        call_id = clean_id(id, "call")
        text, found = result_parts(value, descriptor, self.tool_name(call_id))
        fields: dict[str, Any] = {"descriptor": found} if found is not None else {}
        self.emit(
            ToolResult(
                tool_call_id=call_id,
                tool_name=self.tool_name(call_id),
                text=text,
                complete=complete,
                is_error=bool(is_error),
                **fields,
            )
        )

    def error(self, id: str, exc: BaseException | str) -> None:
        """The call failed: its result is the error's type and message (no traceback)."""
        self.result(id, error_text(exc), is_error=True)

    def refused(self, id: str, reason: str) -> None:
        """A guard refused the call before it ran."""
        call_id = clean_id(id, "call")
        self.emit(
            ToolRefused(
                tool_call_id=call_id, tool_name=self.tool_name(call_id), reason=redact(str(reason))
            )
        )

    def stream(self, id: str) -> OutputStream:
        """A writer for the running call ``id``: partial results with accumulated text."""
        call_id = clean_id(id, "call")
        return OutputStream(lambda text: self.result(call_id, text, complete=False))

    def message(self, role: str, text: str) -> None:
        """User or assistant text (``thinking``: reasoning) in the conversation."""
        kind = role if role in ("user", "assistant", "thinking") else "assistant"
        self.emit(Message(role=kind, text=redact(str(text))))  # type: ignore[arg-type]

    def usage(
        self,
        *,
        model: str,
        input_tokens: int,
        output_tokens: int,
        cache_read_tokens: int | None = None,
        cache_write_tokens: int | None = None,
    ) -> None:
        """The tokens one model turn took."""
        observation = Usage(
            model=clean_id(model, "model"),
            input_tokens=_tokens(input_tokens),
            output_tokens=_tokens(output_tokens),
            run_id=self.run_id,
        )
        if cache_read_tokens is not None:
            observation = msgspec.structs.replace(
                observation, cache_read_tokens=_tokens(cache_read_tokens)
            )
        if cache_write_tokens is not None:
            observation = msgspec.structs.replace(
                observation, cache_write_tokens=_tokens(cache_write_tokens)
            )
        self.emit(observation)

    def start(self) -> None:
        """Open the run (``run-started``); ``with`` does it."""
        with self._lock:
            if not self._started:
                self._started = True
                self.emit(RunStarted(run_id=self.run_id))

    def end(self, exc: BaseException | None = None) -> None:
        """Close the run (``run-ended``): completed, or the exception's type and message."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            if exc is None:
                self.emit(RunEnded(run_id=self.run_id, outcome="completed"))
                return
            outcome: RunOutcome = "error" if isinstance(exc, Exception) else "aborted"
            self.emit(RunEnded(run_id=self.run_id, outcome=outcome, reason=error_text(exc)))

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.end(exc)

    async def __aenter__(self) -> Self:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.__exit__(exc_type, exc, tb)

    def _adapter(self, name: str, *args: object) -> Any:
        module = importlib.import_module(f"toolview.adapters.{name}")
        return module.attach(self, *args)

    def pydantic_ai(self) -> Any:
        """A pydantic-ai capability that records every tool call (``toolview[pydantic-ai]``)."""
        return self._adapter("pydantic_ai")

    def openai_agents(self, agent: object) -> Any:
        """Run hooks for an OpenAI Agents SDK agent (``toolview[openai-agents]``)."""
        return self._adapter("openai_agents", agent)

    def langchain(self) -> Any:
        """A LangChain / LangGraph callback handler (``toolview[langchain]``)."""
        return self._adapter("langchain")

    def smolagents(self, events: object) -> Any:
        """``agent.run(task, stream=True)``'s events, recorded as they pass.

        Needs ``toolview[smolagents]``.
        """
        return self._adapter("smolagents", events)

    def mcp(self, session: object) -> Any:
        """An MCP ``ClientSession`` whose every ``call_tool`` is recorded."""
        return self._adapter("mcp", session)


def _tokens(value: object) -> int:
    """A token count as a non-negative int (a bad one: 0, never an exception)."""
    try:
        return max(0, int(value))  # type: ignore[call-overload,no-any-return]
    except (TypeError, ValueError, OverflowError):
        return 0
