"""pi's stored session files (JSON Lines, one session per file), read cold.

The entries form a tree (``id``/``parentId``); the conversation is the branch
from the last entry back to the root, which for an unbranched session is the
whole file in order. The final observations equal the live ones because both
paths share ``results.tool_result`` and ``runs``: a stored run spans a user
message to the next, as pi's ``agent_start``/``agent_end`` do live.

Times: a message and a call carry their message's ``timestamp`` as ``at``, as
live; a result carries its ``toolResult`` message's, which live events do not
have when the result is drawn (``tool_execution_end`` has none) — so a stored
result has an ``at`` its live twin lacks, and a stored call has a duration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec

from toolview.contract import Observation, RunEnded, RunStarted, ToolCall
from toolview.hosts.pi.results import PiFormatError, refusal, require_id, tool_result
from toolview.hosts.pi.runs import message_at, message_observation, run_id, run_outcome

__all__ = ["OBSERVER_ENTRY_TYPE", "SESSION_ENTRY_TYPES", "current_branch", "session_observations"]

OBSERVER_ENTRY_TYPE: Final = "toolview:refused"
SESSION_ENTRY_TYPES: Final = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)


def current_branch(entries: Sequence[Mapping[str, object]]) -> list[Mapping[str, object]]:
    """The entries from the root to the last entry, following ``parentId``.

    A file whose links do not form a chain (an old linear session, or a broken
    one) is read in file order rather than losing entries.
    """
    by_id = {entry.get("id"): entry for entry in entries if isinstance(entry.get("id"), str)}
    if not entries or len(by_id) != len(entries):
        return list(entries)
    branch: list[Mapping[str, object]] = []
    entry: Mapping[str, object] | None = entries[-1]
    while entry is not None and len(branch) <= len(entries):
        branch.append(entry)
        parent = entry.get("parentId")
        entry = by_id.get(parent) if isinstance(parent, str) else None
    return branch[::-1] if len(branch) <= len(entries) else list(entries)


class _Reader:
    def __init__(self, session_id: str, kinds: bool) -> None:
        self.session_id = session_id
        self.kinds = kinds
        self.runs = 0
        self.run_messages: list[object] | None = None
        self.calls: dict[str, dict[str, object]] = {}
        self.refused: dict[str, object] = {}
        self.out: list[Observation] = []
        self.cwd: str | msgspec.UnsetType = msgspec.UNSET  # the header's: the index's project

    def end_run(self) -> None:
        if self.run_messages is not None:
            outcome = run_outcome(self.run_messages)
            self.out.append(RunEnded(run_id=run_id(self.session_id, self.runs), outcome=outcome))
            self.run_messages = None

    def entry(self, entry: Mapping[str, object]) -> None:
        kind = entry.get("type")
        if kind == "custom" and entry.get("customType") == OBSERVER_ENTRY_TYPE:
            data = entry.get("data")
            if isinstance(data, Mapping) and isinstance(data.get("toolCallId"), str):
                self.refused[data["toolCallId"]] = data.get("reason")
        elif kind == "message" and isinstance(entry.get("message"), Mapping):
            self.message(entry["message"])  # type: ignore[arg-type]

    def message(self, message: Mapping[str, object]) -> None:
        role = message.get("role")
        if role == "user":
            self.end_run()
            self.runs += 1
            self.run_messages = []
            self.out.append(RunStarted(run_id=run_id(self.session_id, self.runs), cwd=self.cwd))
        if self.run_messages is not None:
            self.run_messages.append(message)
        observation = message_observation(message)
        if observation is not None:
            self.out.append(observation)
        if role == "assistant":
            self.tool_calls(message.get("content"), message_at(message))
        elif role == "toolResult":
            self.tool_result(message)

    def tool_calls(self, content: object, at: str | msgspec.UnsetType) -> None:
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, Mapping) or block.get("type") != "toolCall":
                continue
            call_id = require_id(block.get("id"), "toolCall id")
            name = require_id(block.get("name"), "toolCall name")
            args = block.get("arguments")
            if not isinstance(args, Mapping):
                raise PiFormatError(f"arguments of call {call_id!r} is not a JSON object")
            self.calls[call_id] = dict(args)
            self.out.append(ToolCall(tool_call_id=call_id, tool_name=name, args=dict(args), at=at))

    def tool_result(self, message: Mapping[str, object]) -> None:
        call_id = require_id(message.get("toolCallId"), "toolResult toolCallId")
        name = require_id(message.get("toolName"), "toolResult toolName")
        args = self.calls.pop(call_id, None)
        if call_id in self.refused and message.get("isError") is True:
            self.out.append(refusal(call_id, name, self.refused.pop(call_id)))
            return
        result = tool_result(
            call_id,
            name,
            message,
            complete=True,
            is_error=message.get("isError", False),
            args=args,
            kinds=self.kinds,
        )
        self.out.append(msgspec.structs.replace(result, at=message_at(message)))


def session_observations(
    entries: Sequence[Mapping[str, object]], *, kinds: bool = False
) -> list[Observation]:
    """The observations of a decoded session file (header first, then entries)."""
    header = entries[0] if entries and entries[0].get("type") == "session" else None
    session_id = header.get("id") if header is not None else None
    reader = _Reader(session_id if isinstance(session_id, str) and session_id else "pi", kinds)
    cwd = header.get("cwd") if header is not None else None
    reader.cwd = cwd if isinstance(cwd, str) and cwd else msgspec.UNSET
    body = list(entries[1:] if header is not None else entries)
    for entry in current_branch(body):
        reader.entry(entry)
    reader.end_run()
    return reader.out
