"""``CursorMapper``: one Cursor agent stream-json event in, the observations it makes out.

The events (cursor.com/docs/cli/reference/output-format): ``system``/``init``
names the session, its folder and model; ``user`` is the prompt; ``assistant``
one whole message between calls; ``tool_call`` ``started`` then ``completed``
under one ``call_id``, the call held as ``{"<name>ToolCall": {args, result}}``
(``{"function": {name, arguments}}`` for a tool Cursor does not name);
``result`` closes the run (``is_error`` when it failed). ``thinking``
(``delta``/``completed``) comes from community parsers only: its deltas are
joined into one thinking message.

A prompt starts a run; ``result``, the next prompt or the end of input ends it.
An event type not known here is said once (``take_notes``); a line that is not
an event raises ``SessionLineError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Final

from toolview.contract import Message, Observation, RunEnded, ToolCall
from toolview.hosts.codex.fields import as_map, as_str, content_text, json_object
from toolview.hosts.copilot.runs import SessionRuns
from toolview.hosts.cursor.records import KNOWN_RECORDS
from toolview.hosts.cursor.tools import result_of, usage_of
from toolview.hosts.sessions import SessionLineError, decode_record

__all__ = ["CursorMapper", "call_of"]

_TYPE_CHARS: Final = 60
_REASON_CHARS: Final = 300


class CursorMapper(SessionRuns):
    """Maps a Cursor agent stream-json run, event by event, to observations."""

    def __init__(self) -> None:
        super().__init__()
        self.subagents: list[tuple[str, str]] = []  # the stream names none
        self._model: str | None = None
        self._calls: dict[str, ToolCall] = {}
        self._thinking: list[str] = []
        self._thinking_at: str | None = None
        self._unknown: set[str] = set()

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one event line and map it; a line that is no event raises ``SessionLineError``."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one decoded event makes (often none)."""
        kind = as_str(record.get("type"))
        if kind is None:
            raise SessionLineError("a Cursor agent event without a type")
        self.session_id = self.session_id or as_str(record.get("session_id"))
        at = _at(record.get("timestamp_ms"))
        if kind != "thinking":
            self._said_thinking()
        if kind not in ("user", "system"):
            self._reopen()
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, record, at)
        elif kind not in KNOWN_RECORDS and kind not in self._unknown:
            self._unknown.add(kind)
            self._notes.append(f"Cursor agent events of type {kind[:_TYPE_CHARS]!r} are not shown")
        return self._handed()

    def finish(self) -> list[Observation]:
        """End of input: thinking not yet said is said, then the open run ends."""
        self._said_thinking()
        return super().finish()

    def _init(self, record: Mapping[str, object], _at: str | None) -> None:
        self._cwd = as_str(record.get("cwd")) or self._cwd
        self._model = as_str(record.get("model")) or self._model

    def _user(self, record: Mapping[str, object], at: str | None) -> None:
        text = content_text(as_map(record.get("message")).get("content"))
        if text.strip():
            self._start_run(at)
            self._add(Message(role="user", text=text), at, None)

    def _assistant(self, record: Mapping[str, object], at: str | None) -> None:
        text = content_text(as_map(record.get("message")).get("content"))
        if text.strip():
            self._open(at)
            self._add(Message(role="assistant", text=text), at, None)

    def _think(self, record: Mapping[str, object], at: str | None) -> None:
        text = record.get("text")
        if isinstance(text, str):
            if not self._thinking:
                self._thinking_at = at  # the thinking is stamped when it began
            self._thinking.append(text)
        if record.get("subtype") == "completed":
            self._said_thinking()

    def _said_thinking(self) -> None:
        text, self._thinking = "".join(self._thinking), []
        if text.strip():
            self._open(self._thinking_at)
            self._add(Message(role="thinking", text=text), self._thinking_at, None)

    def _tool(self, record: Mapping[str, object], at: str | None) -> None:
        call_id = as_str(record.get("call_id"))
        if call_id is None:
            raise SessionLineError("a Cursor agent tool call without a call_id")
        self._open(at)
        name, body = call_of(as_map(record.get("tool_call")))
        call = self._calls.get(call_id)
        if call is None:
            call = ToolCall(tool_call_id=call_id, tool_name=name, args=_args(name, body))
            self._calls[call_id] = call
            self._add(call, at, None)
        if record.get("subtype") == "completed":
            del self._calls[call_id]
            self._add(result_of(call, as_map(body.get("result")), at), None, None)

    def _result(self, record: Mapping[str, object], at: str | None) -> None:
        made = usage_of(as_map(record.get("usage")), self._model, self._run)
        if made is not None:
            self._add(made, at, None)
        if self._run is None:
            return
        if record.get("is_error") is True:
            said = as_str(record.get("result")) or as_str(record.get("subtype")) or "failed"
            ended = RunEnded(run_id=self._run, outcome="error", reason=said[:_REASON_CHARS])
            self._out.append(ended)
            self._run = None
        else:
            self._end_run()


def call_of(tool_call: Mapping[str, object]) -> tuple[str, Mapping[str, object]]:
    """The tool's name and its ``{args, result}``: ``shellToolCall`` is ``shell``; a
    ``function`` names itself; anything else keeps its key."""
    for key, value in tool_call.items():
        body = as_map(value)
        if key == "function":
            return as_str(body.get("name")) or "function", body
        return (key.removesuffix("ToolCall") or key), body
    return "unknown", {}


def _args(name: str, body: Mapping[str, object]) -> dict[str, object]:
    args = body.get("args")
    if args is None and "arguments" in body:  # a ``function``: its arguments a JSON string
        args = json_object(body.get("arguments"))
    return dict(as_map(args))


def _at(value: object) -> str | None:
    """``timestamp_ms`` (epoch milliseconds) as the contract's time; None if it is none."""
    if type(value) is not int or not 0 < value < 32503680000000:
        return None
    moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


_Handler = Callable[[CursorMapper, Mapping[str, object], "str | None"], None]
_HANDLERS: Final[dict[str, _Handler]] = {
    "system": CursorMapper._init,
    "user": CursorMapper._user,
    "assistant": CursorMapper._assistant,
    "thinking": CursorMapper._think,
    "tool_call": CursorMapper._tool,
    "result": CursorMapper._result,
}
