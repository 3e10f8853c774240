"""``CodexMapper``: one rollout record in, the observations it makes out.

Sans-IO, so a finished rollout and a growing one map alike: feed each
decoded line (``{timestamp, type, payload}``), then ``finish`` at the end of
input (a record fed after it reopens the run ``finish`` ended: a watched
rollout that grew again). A call is drawn when its ``function_call``
arrives and answered when its output does, with the end record that came
before it (exec/patch end, or an ``item_completed`` item) for the exit
code, duration and changes. Every observation carries the record's time
as ``at`` and, in a sub-agent's mapper, the spawning call's id as
``parent_call_id``. Nothing raises from ``feed``: a record of an unknown
type is skipped (and named once in ``take_notes``), a known one of a wrong
shape reads as what it holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Observation, ToolCall, ToolResult
from toolview.hosts.codex.events import EventState
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.codex.items import CALL_TYPES, OUTPUT_TYPES, call_of, message_of, reasoning_of
from toolview.hosts.codex.mcp import search_text
from toolview.hosts.codex.results import output_text, tool_result
from toolview.hosts.sessions import decode_record, utc_timestamp

__all__ = ["SKIPPED_RECORDS", "CodexMapper"]

SKIPPED_RECORDS: Final = frozenset(
    {"world_state", "token_usage_record", "inter_agent_communication_metadata", "compacted"}
)
_LEGACY_ITEMS: Final = CALL_TYPES | OUTPUT_TYPES | {"message", "reasoning"}


def _legacy(record: Mapping[str, object]) -> tuple[str, object]:
    """Rollouts of mid-2025 began with a bare ``{id, timestamp, instructions}`` line
    and kept ``{"record_type": "state"}`` lines between the items."""
    if record.get("record_type") == "state":
        return "compacted", None  # skipped by name
    if isinstance(record.get("id"), str) and "timestamp" in record:
        return "session_meta", record
    return "", None


class CodexMapper(EventState):
    """Maps a Codex rollout, record by record, to observations."""

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one rollout line and map it; a line that is no JSON object raises
        ``SessionLineError`` (the loader turns it into a visible note)."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one decoded record makes (often none)."""
        self.reopen()
        at = utc_timestamp(record.get("timestamp"))
        kind, payload = as_str(record.get("type")), record.get("payload")
        if payload is None and kind in _LEGACY_ITEMS:  # before the {type, payload} wrapper
            kind, payload = "response_item", record
        elif kind is None and payload is None:  # before it too: a bare header, or a state line
            kind, payload = _legacy(record)
        body = as_map(payload)
        if kind == "session_meta":
            self.meta(body)
        elif kind == "turn_context":
            self.context(body)
        elif kind == "response_item":
            self.item(body, at)
        elif kind == "event_msg":
            self.event(body, at)
        elif kind not in SKIPPED_RECORDS:
            self.unknown(kind)
        return self.stamped(at)

    def finish(self) -> list[Observation]:
        """End of input: calls with an end record but no output are answered from it,
        and a turn still open ends (``aborted`` when calls are left without results)."""
        for call_id in [c for c, call in self.calls.items() if call.end is not None]:
            self.answer(call_id, None, failed=False, at=self.end_at.pop(call_id, None))
        self.close()
        return self.stamped(None)

    def item(self, item: Mapping[str, object], at: str | None) -> None:
        kind = as_str(item.get("type"))
        if kind in CALL_TYPES:
            call = call_of(item)
            if call is not None and call.call_id not in self.calls:
                self.calls[call.call_id] = call
                self.out.append(
                    ToolCall(tool_call_id=call.call_id, tool_name=call.tool_name, args=call.args)
                )
        elif kind in OUTPUT_TYPES:
            call_id = as_str(item.get("call_id"))
            if call_id is not None and call_id in self.calls:
                text, failed = output_text(item.get("output"))
                if kind == "tool_search_output":
                    text = search_text(item.get("tools"))
                self.answer(call_id, text, failed=failed, at=at)
        elif kind == "reasoning":
            self.add(reasoning_of(item))
        elif kind in ("message", "agent_message"):
            message = message_of(item)
            if message is not None and message.role == "user" and kind == "message":
                self.user_turn()
            self.add(message)
        elif kind == "web_search_call":
            self.web_search(item)

    def answer(self, call_id: str, output: str | None, *, failed: bool, at: str | None) -> None:
        call = self.calls.pop(call_id)
        self.end_at.pop(call_id, None)
        self.out.append(tool_result(call, output, failed=failed, cwd=self.cwd, at=at))

    def web_search(self, item: Mapping[str, object]) -> None:
        """A hosted web search: no call id, no output item; drawn as one finished call."""
        self.searches += 1
        call_id = as_str(item.get("id")) or f"web_search-{self.searches}"
        action = dict(as_map(item.get("action")))
        query = as_str(action.get("query")) or ""
        status = as_str(item.get("status")) or "completed"
        self.out.append(ToolCall(tool_call_id=call_id, tool_name="web_search", args=action))
        text = f"searched: {query}" if query else f"web search {status}"
        failed = status == "failed"
        self.out.append(
            ToolResult(
                tool_call_id=call_id,
                tool_name="web_search",
                text=text,
                complete=True,
                is_error=failed,
            )
        )

    def stamped(self, at: str | None) -> list[Observation]:
        """The observations made so far, each with its time and its sub-agent mark."""
        out, self.out = self.out, []
        fields: dict[str, str] = (
            {} if self.parent_call_id is None else {"parent_call_id": self.parent_call_id}
        )
        if at is None and not fields:
            return out
        return [
            msgspec.structs.replace(
                o, **fields, **({"at": at} if at and o.at is msgspec.UNSET else {})
            )
            for o in out
        ]
