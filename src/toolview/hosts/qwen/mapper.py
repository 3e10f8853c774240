"""``QwenMapper``: one Qwen Code chat record in, the observations it makes out.

Qwen Code (a Gemini CLI fork) appends one record per line to its chat file:
``{uuid, parentUuid, sessionId, timestamp, type, cwd, version, ...}`` with
``type`` one of ``user`` (the prompt: ``message.parts``), ``assistant`` (a
model response: Gemini-style ``parts`` of text, ``thought`` text and
``functionCall``; ``usageMetadata`` and ``model`` beside them),
``tool_result`` (a call's answer: ``toolCallResult`` with its ``status`` and
the ``resultDisplay`` the CLI's screen drew) and ``system`` (the CLI's own
bookkeeping: telemetry, attribution snapshots, compressions). Unlike Gemini
CLI's log, nothing is written twice, so each record is drawn once as it is.

A user prompt starts a run, the next prompt or the end of the file ends it.
A record of a ``type`` no version wrote raises ``SessionLineError`` (a
visible note); a ``system`` record of a kind not known here is said once
(``take_notes``), never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolview.contract import Message, Observation, RunEnded, RunStarted, ToolCall
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.qwen.records import SKIPPED_SUBTYPES as _BOOKKEEPING
from toolview.hosts.qwen.tools import result_of, usage_of
from toolview.hosts.sessions import SessionLineError, decode_record, utc_timestamp

__all__ = ["QwenMapper"]


class QwenMapper:
    """Maps a Qwen Code chat file, record by record, to observations."""

    def __init__(self, *, parent_call_id: str | None = None) -> None:
        self.parent_call_id = parent_call_id  # a sub-agent's chat: the call that ran it
        self.session_id: str | None = None
        self.subagents: list[tuple[str, str]] = []  # none: the meta files link them
        self._calls: dict[str, ToolCall] = {}
        self._notes: list[str] = []
        self._unknown: set[str] = set()
        self._out: list[Observation] = []
        self._runs = 0
        self._run: str | None = None
        self._closed: str | None = None  # the run ``finish`` ended, while it may reopen
        self._cwd = ""  # the folder every record names: the index's project (``RunStarted.cwd``)

    def take_notes(self) -> list[str]:
        """What should be said beside the observations (system records not known here)."""
        notes, self._notes = self._notes, []
        return notes

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one chat line and map it; a line that is no record raises ``SessionLineError``."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one decoded record makes (often none)."""
        kind, at = as_str(record.get("type")), utc_timestamp(record.get("timestamp"))
        if self._closed is not None and kind != "user":  # a watched chat grew after ``finish``
            self._run, self._closed = self._closed, None
            self._out.append(RunStarted(run_id=self._run))  # the same run, its calls pending
        self.session_id = self.session_id or as_str(record.get("sessionId"))
        self._cwd = self._cwd or as_str(record.get("cwd")) or ""
        parts = as_map(record.get("message")).get("parts")
        parts = [as_map(p) for p in parts] if isinstance(parts, list) else []
        if kind == "user":
            self._user(parts, at)
        elif kind == "assistant":
            self._assistant(record, parts, at)
        elif kind == "tool_result":
            self._result(as_map(record.get("toolCallResult")), parts, at)
        elif kind == "system":
            self._system(as_str(record.get("subtype")) or "?")
        else:
            raise SessionLineError(f"a Qwen Code record of type {str(kind)[:40]!r} is not shown")
        return self._take()

    def finish(self) -> list[Observation]:
        """End of input: the open run ends; a record fed after it (not a new prompt) reopens
        that run (``serve --watch`` finishes an idle file)."""
        closed = self._run
        self._end_run()
        self._closed = closed
        return self._take()

    def _user(self, parts: list[Mapping[str, object]], at: str | None) -> None:
        text = "".join(str(p["text"]) for p in parts if isinstance(p.get("text"), str))
        if text.strip():
            self._start_run(at)
            self._add(Message(role="user", text=text), at)

    def _assistant(
        self, record: Mapping[str, object], parts: list[Mapping[str, object]], at: str | None
    ) -> None:
        if self._run is None:
            self._start_run(at)
        for part in parts:
            text, call = part.get("text"), as_map(part.get("functionCall"))
            if isinstance(text, str) and text.strip():
                thought = part.get("thought") is True
                self._add(Message(role="thinking" if thought else "assistant", text=text), at)
            call_id, name = as_str(call.get("id")), as_str(call.get("name"))
            if call_id is not None and name is not None:
                args = dict(as_map(call.get("args")))
                made = ToolCall(tool_call_id=call_id, tool_name=name, args=args)
                self._calls[call_id] = made
                self._add(made, at)
        usage = record.get("usageMetadata")
        if isinstance(usage, Mapping):
            model = as_str(record.get("model")) or "unknown"
            self._add(usage_of(model, usage, self._run), at)

    def _result(
        self, answer: Mapping[str, object], parts: list[Mapping[str, object]], at: str | None
    ) -> None:
        call_id = as_str(answer.get("callId"))
        call = self._calls.pop(call_id, None) if call_id is not None else None
        if call is None:
            raise SessionLineError(f"a Qwen Code result for a call not seen ({str(call_id)[:40]})")
        self._out.append(result_of(call, answer, parts, at))

    def _system(self, subtype: str) -> None:
        if subtype not in _BOOKKEEPING and subtype not in self._unknown:
            self._unknown.add(subtype)
            self._notes.append(f"Qwen Code system records of kind {subtype[:40]!r} are not shown")

    def _start_run(self, at: str | None) -> None:
        self._end_run()
        self._closed = None
        self._runs += 1
        agent = f"/{self.parent_call_id}" if self.parent_call_id else ""  # its own runs
        self._run = f"{self.session_id or 'qwen'}{agent}/{self._runs}"
        self._add(RunStarted(run_id=self._run, cwd=self._cwd or msgspec.UNSET), at)

    def _end_run(self) -> None:
        if self._run is not None:
            self._out.append(RunEnded(run_id=self._run, outcome="completed"))
        self._run = None

    def _take(self) -> list[Observation]:
        """What was mapped since the last take, a sub-agent's marked with its call."""
        out, self._out = self._out, []
        if self.parent_call_id is None:
            return out
        return [msgspec.structs.replace(o, parent_call_id=self.parent_call_id) for o in out]

    def _add(self, observation: Observation, at: str | None) -> None:
        self._out.append(observation if at is None else msgspec.structs.replace(observation, at=at))
