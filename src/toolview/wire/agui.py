"""The same thread as AG-UI events, via the ``ag-ui-protocol`` package's models.

Observations map one to one onto the protocol's lifecycle: ``run-started`` /
``run-ended`` to RUN_STARTED / RUN_FINISHED (or RUN_ERROR), a ``tool-call`` to
TOOL_CALL_START/ARGS/END, a completed ``tool-result`` to TOOL_CALL_RESULT with
the descriptor in ``metadata["toolview:result"]``, a ``message`` to
TEXT_MESSAGE_START/CONTENT/END. A partial tool-result yields no event. A
refused call is a tool call whose result is the refusal (no descriptor).
Observations outside any run are wrapped in an implicit run, because AG-UI
clients expect every event inside one.
"""

from __future__ import annotations

import json

import msgspec
from ag_ui.core import (
    BaseEvent,
    RunErrorEvent,
    RunFinishedCancelledOutcome,
    RunFinishedEvent,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from toolview.contract import (
    METADATA_KEY,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.wire.follow import Redactor, redact_observation

__all__ = ["REFUSED_KEY", "AguiTranslator", "encode_sse"]

REFUSED_KEY = "toolview:refused"


def encode_sse(event: BaseEvent) -> str:
    """One event as an SSE ``data:`` frame, the protocol's own JSON (camelCase)."""
    return f"data: {event.model_dump_json(by_alias=True, exclude_none=True)}\n\n"


class AguiTranslator:
    """Turns one thread's observations into AG-UI events, in order."""

    def __init__(self, thread_id: str, redactor: Redactor) -> None:
        self.thread_id = thread_id
        self.redactor = redactor
        self.run_id: str | None = None
        self.implicit = False  # whether the open run is one this translator made up
        self.started: set[str] = set()

    def push(self, seq: int, observation: Observation) -> list[BaseEvent]:
        """Events for one observation (none for a partial result)."""
        if isinstance(observation, ToolResult) and not observation.complete:
            return []
        observation = redact_observation(observation, self.redactor)
        if isinstance(observation, RunStarted):
            events = self.finish()
            self.run_id = observation.run_id
            return [*events, RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id)]
        if isinstance(observation, RunEnded):
            return self._end(observation)
        events = self._ensure_run(seq)
        if isinstance(observation, Message):
            events += self._message(seq, observation)
        elif isinstance(observation, ToolCall):
            events += self._call(observation.tool_call_id, observation.tool_name, observation.args)
        elif isinstance(observation, ToolResult):
            events += self._result(observation)
        elif isinstance(observation, ToolRefused):
            events += self._refused(observation)
        return events

    def finish(self) -> list[BaseEvent]:
        """Close the open run, if any (at a new run or at the end of the stream)."""
        if self.run_id is None:
            return []
        run_id, self.run_id, self.implicit = self.run_id, None, False
        return [RunFinishedEvent(thread_id=self.thread_id, run_id=run_id)]

    def finish_implicit(self) -> list[BaseEvent]:
        """Close the open run only if it was made up here (a real one may still be going)."""
        return self.finish() if self.implicit else []

    def _ensure_run(self, seq: int) -> list[BaseEvent]:
        if self.run_id is not None:
            return []
        self.run_id, self.implicit = f"{self.thread_id}:implicit-{seq}", True
        return [RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id)]

    def _end(self, ended: RunEnded) -> list[BaseEvent]:
        if self.run_id is None:
            return []
        run_id, self.run_id, self.implicit = self.run_id, None, False
        if ended.outcome == "error":
            return [RunErrorEvent(message="the run ended with an error", code="run_error")]
        outcome = (
            RunFinishedCancelledOutcome()
            if ended.outcome == "aborted"
            else RunFinishedSuccessOutcome()
        )
        return [RunFinishedEvent(thread_id=self.thread_id, run_id=run_id, outcome=outcome)]

    def _message(self, seq: int, message: Message) -> list[BaseEvent]:
        message_id = f"{self.thread_id}:message-{seq}"
        events: list[BaseEvent] = [TextMessageStartEvent(message_id=message_id, role=message.role)]
        if message.text:
            events.append(TextMessageContentEvent(message_id=message_id, delta=message.text))
        return [*events, TextMessageEndEvent(message_id=message_id)]

    def _call(self, call_id: str, name: str, args: object) -> list[BaseEvent]:
        self.started.add(call_id)
        return [
            ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name),
            ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(args)),
            ToolCallEndEvent(tool_call_id=call_id),
        ]

    def _opened(self, call_id: str, name: str) -> list[BaseEvent]:
        """A result for a call never announced is announced first (with no args)."""
        return [] if call_id in self.started else self._call(call_id, name, {})

    def _result(self, result: ToolResult) -> list[BaseEvent]:
        metadata: dict[str, object] = {"toolview:isError": result.is_error}
        if not isinstance(result.descriptor, msgspec.UnsetType):
            metadata[METADATA_KEY] = msgspec.to_builtins(result.descriptor)
        event = ToolCallResultEvent(
            message_id=f"{self.thread_id}:result-{result.tool_call_id}",
            tool_call_id=result.tool_call_id,
            content=result.text,
            role="tool",
            metadata=metadata,
        )
        return [*self._opened(result.tool_call_id, result.tool_name), event]

    def _refused(self, refused: ToolRefused) -> list[BaseEvent]:
        guard = refused.guard if isinstance(refused.guard, str) else None
        text = f"refused{f' by {guard}' if guard else ''}: {refused.reason}"
        receipt = {"reason": refused.reason, **({"guard": guard} if guard else {})}
        event = ToolCallResultEvent(
            message_id=f"{self.thread_id}:result-{refused.tool_call_id}",
            tool_call_id=refused.tool_call_id,
            content=text,
            role="tool",
            metadata={REFUSED_KEY: receipt},
        )
        return [*self._opened(refused.tool_call_id, refused.tool_name), event]
