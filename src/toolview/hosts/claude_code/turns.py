"""The conversation's state: open calls, results that came first, sub-agents, usage.

Calls and results are paired by id whatever the order: a result whose call has
not been seen yet waits for it (and, at the end, is shown under a call named
``unknown`` rather than lost); a second copy of a call or a result (a resumed
session repeats records) is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol

import msgspec

from toolview.contract import Message, Observation, ToolCall
from toolview.hosts.claude_code.finished import get_str
from toolview.hosts.claude_code.records import Stamp, plain_text
from toolview.hosts.claude_code.results import Results
from toolview.hosts.claude_code.stored import ReadStored
from toolview.hosts.claude_code.tools import AGENT_TOOLS
from toolview.hosts.claude_code.usage import UsageCounter

__all__ = ["Child", "Owner", "Turns"]

UNKNOWN_TOOL: Final = "unknown"


class Child(Protocol):
    """A sub-agent's mapper, as its parent uses it."""

    def feed(self, record: Mapping[str, object]) -> list[Observation]: ...
    def finish(self) -> list[Observation]: ...
    def take_notes(self) -> list[str]: ...


class Owner(Protocol):
    """The mapper these turns belong to."""

    run_id: str | None
    notes: list[str]
    subagents: list[tuple[str, str]]


@dataclass
class _Call:
    name: str
    args: dict[str, object]


class Turns:
    """What a session's records have opened and not yet closed."""

    def __init__(self, owner: Owner, read_stored: ReadStored | None) -> None:
        self._owner = owner
        self._read_stored = read_stored
        self._calls: dict[str, _Call] = {}
        self._closed: set[str] = set()
        self._early: dict[str, tuple[Mapping[str, object], object, Stamp, str]] = {}
        self.children: dict[str, Child] = {}
        self._results = Results(owner.notes, read_stored)
        self._usage = UsageCounter()

    def open_calls(self) -> int:
        """How many calls have no result yet."""
        return len(self._calls)

    def open_agent_calls(self) -> list[tuple[str, object]]:
        """``(id, prompt)`` of each Task/Agent call still running and without a child yet."""
        return [
            (call_id, call.args.get("prompt"))
            for call_id, call in self._calls.items()
            if call.name in AGENT_TOOLS and call_id not in self.children
        ]

    def assistant(self, message: Mapping[str, object], stamp: Stamp) -> list[Observation]:
        """Text, thinking and tool calls of one assistant record, and a finished turn's usage."""
        out: list[Observation] = list(self._usage.see(message, self._owner.run_id, stamp))
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, Mapping):
                self._owner.notes.append("an assistant content block is not an object; left out")
                continue
            kind = block.get("type")
            if kind == "text":
                self._message("assistant", block.get("text"), stamp, out)
            elif kind == "thinking":
                self._message("thinking", block.get("thinking"), stamp, out)
            elif kind == "tool_use":
                self._call(block, stamp, out)
        return out

    def user(
        self, record: Mapping[str, object], message: Mapping[str, object], stamp: Stamp
    ) -> list[Observation]:
        """A prompt (text, images named) and the tool results the record carries."""
        out: list[Observation] = list(self._usage.flush())
        content = message.get("content")
        if record.get("isMeta") is not True:
            self._message("user", plain_text(content), stamp, out)
        blocks = content if isinstance(content, list) else []
        results = [b for b in blocks if isinstance(b, Mapping) and b.get("type") == "tool_result"]
        detail = record.get("toolUseResult") if len(results) == 1 else None
        hint = get_str(record, "agentId") if record.get("isSidechain") is not True else None
        for block in results:
            out.extend(self._result(block, detail, stamp, hint or ""))
        return out

    def finish(self, stamp: Stamp) -> list[Observation]:
        """The held usage, results that never met their call, sub-agents still open."""
        out: list[Observation] = list(self._usage.flush())
        for call_id, (block, detail, early, hint) in list(self._early.items()):
            self._calls[call_id] = _Call(UNKNOWN_TOOL, {})
            out.append(ToolCall(tool_call_id=call_id, tool_name=UNKNOWN_TOOL, args={}, **early))
            out.extend(self._result(block, detail, early, hint, "the session has no call for it"))
        self._early.clear()
        for child in self.children.values():  # kept: a record after this one reopens them
            out.extend(child.finish())
        return out

    def _message(self, role: str, text: object, stamp: Stamp, out: list[Observation]) -> None:
        if isinstance(text, str) and text.strip():
            out.append(Message(role=role, text=text, **stamp))  # type: ignore[arg-type]

    def _call(self, block: Mapping[str, object], stamp: Stamp, out: list[Observation]) -> None:
        call_id, name, args = get_str(block, "id"), get_str(block, "name"), block.get("input")
        if not call_id or not name:
            self._owner.notes.append("a tool_use block without an id or a name; left out")
            return
        if call_id in self._calls or call_id in self._closed:
            return  # a repeated record
        if not isinstance(args, Mapping):
            self._owner.notes.append(
                f"the input of call {call_id[:60]} is not an object; not shown"
            )
            args = {}
        self._calls[call_id] = _Call(name, dict(args))
        out.append(ToolCall(tool_call_id=call_id, tool_name=name, args=dict(args), **stamp))
        early = self._early.pop(call_id, None)
        if early is not None:
            out.extend(self._result(*early))

    def _result(
        self,
        block: Mapping[str, object],
        detail: object,
        stamp: Stamp,
        hint: str = "",
        note: str = "",
    ) -> list[Observation]:
        """The call's result; ``hint``: the record's own ``agentId`` (2.0 put the link there)."""
        call_id = get_str(block, "tool_use_id")
        if not call_id:
            self._owner.notes.append("a tool_result block without a tool_use_id; left out")
            return []
        call = self._calls.pop(call_id, None)
        if call is None:
            if call_id not in self._closed:
                self._early[call_id] = (block, detail, stamp, hint)
            return []
        self._closed.add(call_id)
        out: list[Observation] = []
        child = self.children.pop(call_id, None)
        if child is not None:
            out.extend(child.finish())
        done, result = self._results.result(call_id, call.name, call.args, block, detail, note)
        out.append(msgspec.structs.replace(result, **stamp))
        if call.name in AGENT_TOOLS and child is None:
            agent = get_str(done.details, "agentId") or hint
            self._owner.subagents.append((call_id, agent))
        return out
