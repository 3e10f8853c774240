"""``CopilotMapper``: one Copilot CLI session event in, the observations it makes out.

Copilot CLI appends one event per line to ``events.jsonl``: ``{type, data, id,
timestamp, parentId}`` (``agentId`` too on a sub-agent's events). A prompt is
``user.message``; the model's answer ``assistant.message`` (its ``content``,
``reasoningText`` and ``toolRequests``); a call runs between
``tool.execution_start`` and ``tool.execution_complete``; usage is
``session.usage_record``. A sub-agent's events name their spawning call
(``data.parentToolCallId``), so its calls nest under that call; its prompt is
that call's arguments and is not drawn again.

A prompt starts a run; the next prompt, ``session.shutdown`` or the end of the
file ends it. A type not known here is said once (``take_notes``), never
dropped silently; a line that is not an event raises ``SessionLineError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from toolview.contract import Message, Observation, RunStarted, ToolCall
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.copilot.records import KNOWN_RECORDS
from toolview.hosts.copilot.runs import SessionRuns
from toolview.hosts.copilot.tools import result_of, usage_of
from toolview.hosts.sessions import SessionLineError, decode_record, utc_timestamp

__all__ = ["CopilotMapper"]

_TYPE_CHARS: Final = 60


class CopilotMapper(SessionRuns):
    """Maps a Copilot CLI ``events.jsonl``, event by event, to observations."""

    def __init__(self) -> None:
        super().__init__()
        self.subagents: list[tuple[str, str]] = []  # sub-agents share the file: nothing to link
        self._calls: dict[str, ToolCall] = {}
        self._unknown: set[str] = set()
        self._agents: dict[str, str] = {}  # a sub-agent's id → the call that spawned it
        self._reasoned: set[tuple[str | None, str]] = set()  # reasoning said as its own event

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one event line and map it; a line that is no event raises ``SessionLineError``."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one decoded event makes (often none)."""
        kind = as_str(record.get("type"))
        if kind is None:
            raise SessionLineError("a Copilot CLI event without a type")
        data, at = as_map(record.get("data")), utc_timestamp(record.get("timestamp"))
        agent = as_str(record.get("agentId"))
        parent = as_str(data.get("parentToolCallId")) or self._agents.get(agent or "")
        if kind == "subagent.started" and agent is not None:  # its events name it, not the call
            self._agents[agent] = as_str(data.get("toolCallId")) or ""
        if kind not in ("user.message", "session.shutdown"):
            self._reopen()
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, data, at, parent or None, agent is not None)
        elif kind not in KNOWN_RECORDS and kind not in self._unknown:
            self._unknown.add(kind)
            self._notes.append(f"Copilot CLI events of type {kind[:_TYPE_CHARS]!r} are not shown")
        return self._handed()

    def _start(self, data: Mapping[str, object], at: str | None, *_: object) -> None:
        self.session_id = self.session_id or as_str(data.get("sessionId"))
        self._cwd = as_str(as_map(data.get("context")).get("cwd")) or self._cwd

    def _user(self, data: Mapping[str, object], at: str | None, _p: str | None, sub: bool) -> None:
        text = as_str(data.get("content")) or ""
        if sub or not text.strip():  # a sub-agent's prompt is its spawning call's arguments
            return
        self._start_run(at)
        self._add(Message(role="user", text=text), at, None)

    def _assistant(
        self, data: Mapping[str, object], at: str | None, parent: str | None, _s: bool
    ) -> None:
        self._open(at)
        turn = as_str(data.get("turnId")) or ""
        thinking = as_str(data.get("reasoningText"))
        if thinking and thinking.strip() and (parent, turn) not in self._reasoned:
            self._add(Message(role="thinking", text=thinking), at, parent)
        text = as_str(data.get("content"))
        if text and text.strip():
            self._add(Message(role="assistant", text=text), at, parent)
        requests = data.get("toolRequests")
        for request in requests if isinstance(requests, list) else []:
            self._call(as_map(request), "toolCallId", "name", at, parent)

    def _reasoning(
        self, data: Mapping[str, object], at: str | None, parent: str | None, _s: bool
    ) -> None:
        thinking = as_str(data.get("content"))
        if thinking and thinking.strip():
            self._open(at)
            self._reasoned.add((parent, as_str(data.get("turnId")) or ""))
            self._add(Message(role="thinking", text=thinking), at, parent)

    def _tool_start(
        self, data: Mapping[str, object], at: str | None, parent: str | None, _s: bool
    ) -> None:
        self._open(at)
        self._call(data, "toolCallId", "toolName", at, parent)

    def _tool_end(
        self, data: Mapping[str, object], at: str | None, parent: str | None, _s: bool
    ) -> None:
        call_id = as_str(data.get("toolCallId"))
        call = self._calls.pop(call_id, None) if call_id is not None else None
        if call is None:
            raise SessionLineError(
                f"a Copilot CLI result for a call not seen ({str(call_id)[:40]})"
            )
        self._add(result_of(call, data, at), None, parent)

    def _usage(
        self, data: Mapping[str, object], at: str | None, parent: str | None, _s: bool
    ) -> None:
        usage = as_map(data.get("usage"))
        made = usage_of(usage, self._run)
        if made is not None:
            self._add(made, at, parent or as_str(usage.get("parentToolCallId")))

    def _titled_event(self, data: Mapping[str, object], at: str | None, *_: object) -> None:
        title = as_str(data.get("title"))
        if title and title.strip():
            self._title = title
            if self._run is not None:  # restated: the same run, its calls as they are
                self._add(RunStarted(run_id=self._run, title=title), at, None)

    def _error(self, data: Mapping[str, object], *_: object) -> None:
        said = as_str(data.get("message")) or as_str(data.get("errorType")) or "?"
        self._notes.append(f"Copilot CLI error: {said[:300]}")

    def _shutdown(self, *_: object) -> None:
        self._end_run()

    def _call(
        self,
        fields: Mapping[str, object],
        id_key: str,
        name_key: str,
        at: str | None,
        parent: str | None,
    ) -> None:
        call_id, name = as_str(fields.get(id_key)), as_str(fields.get(name_key))
        if call_id is None or name is None or call_id in self._calls:
            return  # announced by the model's message already, or not a call
        args = fields.get("arguments")
        made = ToolCall(tool_call_id=call_id, tool_name=name, args=dict(as_map(args)))
        self._calls[call_id] = made
        self._add(made, at, parent)


_Handler = Callable[[CopilotMapper, Mapping[str, object], "str | None", "str | None", bool], None]
_HANDLERS: Final[dict[str, _Handler]] = {
    "session.start": CopilotMapper._start,
    "session.resume": CopilotMapper._start,
    "user.message": CopilotMapper._user,
    "assistant.message": CopilotMapper._assistant,
    "assistant.reasoning": CopilotMapper._reasoning,
    "tool.execution_start": CopilotMapper._tool_start,
    "tool.execution_complete": CopilotMapper._tool_end,
    "session.usage_record": CopilotMapper._usage,
    "session.title_changed": CopilotMapper._titled_event,
    "session.error": CopilotMapper._error,
    "session.shutdown": CopilotMapper._shutdown,
}
