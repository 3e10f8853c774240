"""``OpenCodeMapper``: one session's parts in, the observations they make out.

OpenCode keeps a conversation as messages (``user`` / ``assistant``, their
JSON in ``message.data``) made of parts (``part.data``): ``text``,
``reasoning``, ``tool`` (a call and its state), ``step-start`` /
``step-finish`` (a model turn; the finish holds its tokens and cost). A user
message starts a run; an assistant message with an ``error`` ends it as an
error. A part type the mapper does not know becomes a note (``take_notes``),
never a silent drop. Sans-IO: ``feed`` per part row, ``finish`` at the end.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolview.contract import Message, Observation, Usage
from toolview.contract.types import MAX_DOLLARS
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.opencode.database import PartRow
from toolview.hosts.opencode.records import SKIPPED as _SILENT
from toolview.hosts.opencode.tools import ENDED, call_of, ms_at, result_of
from toolview.hosts.run_marks import RunMarks

__all__ = ["OpenCodeMapper"]


class OpenCodeMapper(RunMarks):
    """Maps one OpenCode session, part by part, to observations."""

    def __init__(self, session_id: str, *, parent_call_id: str | None = None) -> None:
        super().__init__(session_id, parent_call_id)
        self.session_id = session_id
        self.subagents: list[tuple[str, str]] = []  # (the sub-agent's session id, its call)
        self._notes: list[str] = []
        self._unknown: dict[str, int] = {}
        self._message: str | None = None

    def take_notes(self) -> list[str]:
        """What should be said beside the observations (unknown parts, bad rows)."""
        notes, self._notes = self._notes, []
        for kind, count in sorted(self._unknown.items()):
            notes.append(f"{count} OpenCode part(s) of type {kind[:40]!r} are not shown")
        self._unknown = {}
        return notes

    def feed(self, row: PartRow) -> list[Observation]:
        """The observations one part makes (often none)."""
        message, part = row.message, row.part
        if message is None or part is None:
            self._notes.append(f"OpenCode part {row.id[:64]} could not be read (bad JSON)")
            return []
        at = ms_at(as_map(part.get("time")).get("start")) or ms_at(
            as_map(message.get("time")).get("created")
        )
        if row.message_id != self._message:
            self._message = row.message_id
            self._new_message(message, at)
        self._part(message, part, at)
        return self._take()

    def settle(self, row: PartRow) -> list[Observation]:
        """A tool part already fed as a call, now ended: its result alone (``live``)."""
        call = call_of(row.part or {})
        if call is not None:
            self._out.append(result_of(call, as_map((row.part or {}).get("state"))))
        return self._take()

    def finish(self) -> list[Observation]:
        """End of the session: the open run ends."""
        self._end_run()
        return self._take()

    def _new_message(self, message: Mapping[str, object], at: str | None) -> None:
        if message.get("role") == "user" or self._run is None:
            self._start_run(at)
        if message.get("error") is not None:
            error = as_map(message.get("error"))
            said = as_str(as_map(error.get("data")).get("message")) or as_str(error.get("name"))
            self._notes.append(f"OpenCode error: {(said or 'unknown')[:500]}")
            self._failed = True

    def _part(
        self, message: Mapping[str, object], part: Mapping[str, object], at: str | None
    ) -> None:
        kind = as_str(part.get("type")) or "?"
        if kind == "text" and not part.get("synthetic"):
            text = as_str(part.get("text")) or ""
            if text.strip():
                user = message.get("role") == "user"
                self._add(Message(role="user" if user else "assistant", text=text), at)
        elif kind == "reasoning":
            text = as_str(part.get("text")) or ""
            if text.strip():
                self._add(Message(role="thinking", text=text), at)
        elif kind == "tool":
            self._tool(part, at)
        elif kind == "step-finish":
            self._usage(message, part, at)
        elif kind not in _SILENT and kind != "text":
            self._unknown[kind] = self._unknown.get(kind, 0) + 1

    def _tool(self, part: Mapping[str, object], at: str | None) -> None:
        call = call_of(part)
        if call is None:
            self._unknown["tool without a call id"] = (
                self._unknown.get("tool without a call id", 0) + 1
            )
            return
        state = as_map(part.get("state"))
        self._add(call, ms_at(as_map(state.get("time")).get("start")) or at)
        child = as_str(as_map(state.get("metadata")).get("sessionId"))
        if call.tool_name == "task" and child is not None:
            self.subagents.append((child, call.tool_call_id))
        if state.get("status") in ENDED:
            self._out.append(result_of(call, state))

    def _usage(
        self, message: Mapping[str, object], part: Mapping[str, object], at: str | None
    ) -> None:
        """A turn's tokens, and its dollars as OpenCode priced them (``cost``: 0 for a
        model it has no price for, so only more than 0 is its word; else the table's)."""
        tokens = as_map(part.get("tokens"))
        cost = part.get("cost")
        said = cost if type(cost) in (int, float) and 0 < cost <= MAX_DOLLARS else None  # type: ignore[operator]
        count = {k: v for k, v in tokens.items() if type(v) is int and v >= 0}
        cache = {k: v for k, v in as_map(tokens.get("cache")).items() if type(v) is int and v >= 0}
        model = as_str(message.get("modelID")) or "unknown"
        provider = as_str(message.get("providerID"))
        usage = Usage(
            model=f"{provider}/{model}" if provider else model,
            input_tokens=count.get("input", 0),
            output_tokens=count.get("output", 0) + count.get("reasoning", 0),
            cache_read_tokens=cache.get("read", msgspec.UNSET),
            cache_write_tokens=cache.get("write", msgspec.UNSET),
            run_id=self._run or msgspec.UNSET,
            cost_usd=float(said) if said is not None else msgspec.UNSET,  # type: ignore[arg-type]
        )
        self._add(usage, at)
