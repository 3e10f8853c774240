"""One line's worth of a session, for ``toolview sessions``: what it is and how it went.

Why through the host's own loader (``load_observations``) into a ``Thread``,
not a scan of the agent's records: the counts must be the ones ``show`` draws
— a call is what the host maps to a call (a call announced twice is one
call), a failure what the call ledger decides — and the formats drift, so
they are the thread's ``counts()`` (``contract.counts``, the one home every
view reads). Its own entries are drained as they come; a sub-agent's are
kept (a stream's ``sub_keep`` trim would read a later mark naming a trimmed
call as a new placeholder call: a count ``show`` does not make), so each
observation is added bare (no output, arguments or text: nothing a count
reads) and memory holds a few hundred bytes a call; the time is the file's
reading. The project is the run-started's ``cwd`` (``SessionFacts.session``),
else, for a host that does not send it, the working folder in the file's
first lines. Every text shown (the first prompt, the project) is cleaned,
redacted and bounded like any other field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Final

import msgspec

from toolview.cli.session_find import Found
from toolview.contract import Message, Observation, RunEnded, Thread, ToolCall, ToolResult
from toolview.contract.counts import SessionCounts
from toolview.contract.observations import RunStarted
from toolview.contract.session_facts import PROJECT_CHARS, SessionFacts, project_name
from toolview.contract.session_status import SessionStatus
from toolview.render.clean import clean_field

__all__ = ["Summary", "fold", "summarize"]

_HEAD_LINES: Final = 20
_HEAD_BYTES: Final = 256 * 1024


@dataclass
class Summary:
    """What ``sessions`` shows of one session."""

    agent: str
    id: str
    path: str
    project: str
    prompt: str
    start: str | None
    end: str | None
    counts: SessionCounts = field(default_factory=SessionCounts)
    size: int = 0
    notes: int = 0
    """Lines the host could not read."""
    facts: SessionFacts = field(default_factory=SessionFacts)
    """Title, times, last turn (``contract.session_facts``: the one home every view reads)."""

    def status(self, now: float) -> SessionStatus:
        """The session's live status as of ``now`` (``SessionFacts.status``)."""
        return self.facts.status(self.counts.running, now, waiting_calls=self.counts.waiting)

    @property
    def calls(self) -> int:
        """The session's own calls (its sub-agents' are ``counts.sub_calls``)."""
        return self.counts.calls

    @property
    def failures(self) -> int:
        """The session's own failed calls (its sub-agents' are ``counts.sub_failed``)."""
        return self.counts.failed

    @property
    def duration_s(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return max(0.0, (_when(self.end) - _when(self.start)).total_seconds())


def summarize(found: Found) -> Summary:
    """Read ``found`` once, streaming, and sum it up."""
    summary = Summary(found.host.name, found.id, str(found.path), _project(found), "", None, None)
    summary.size = found.path.stat().st_size
    return fold(summary, found.load())


def fold(summary: Summary, records: Iterable[object]) -> Summary:
    """``summary`` with ``records`` (a host's observations and notes) read into it.

    The counts are a ``Thread``'s (``contract.counts``), as ``show`` reads them.
    """
    thread = Thread()
    for record in records:
        if isinstance(record, Observation):
            _see(summary, record)
            thread.add(_bare(record))
            thread.drain()
        else:
            summary.notes += 1
    summary.counts = thread.counts()
    summary.prompt = summary.facts.shown_title or ""
    return summary


def _bare(observation: Observation) -> Observation:
    """``observation`` without what no count reads (a result's text and descriptor, a call's
    arguments, a message's text): the thread holds every call, not its output."""
    if isinstance(observation, ToolResult):
        return msgspec.structs.replace(observation, text="", descriptor=msgspec.UNSET)
    if isinstance(observation, ToolCall):
        return msgspec.structs.replace(observation, args={})
    if isinstance(observation, Message):
        return msgspec.structs.replace(observation, text="")
    return observation


def _see(summary: Summary, observation: Observation) -> None:
    """The session's first and last time, and its title (``contract.session_facts``)."""
    at = observation.at if isinstance(observation.at, str) else None
    if at is not None:
        summary.start = summary.start or at
        summary.end = at
    facts = summary.facts
    if isinstance(observation.parent_call_id, str):
        facts.see("", at=at)  # a sub-agent's: its time only, not the title nor the last turn
        return
    role = observation.role if isinstance(observation, Message) else None
    outcome = observation.outcome if isinstance(observation, RunEnded) else None
    text = observation.text if isinstance(observation, Message) else ""
    kind = str(observation.__struct_config__.tag)
    if isinstance(observation, RunStarted):
        where = (_given(observation.machine), _given(observation.user))
        facts.session(
            _given(observation.cwd), _given(observation.title), _given(observation.branch), where
        )
        summary.project = facts.project or summary.project
    facts.see(kind, role=role, at=at, outcome=outcome, text=lambda: text)


def _given(value: str | msgspec.UnsetType) -> str | None:
    return value if isinstance(value, str) else None


def _project(found: Found) -> str:
    """The session's working folder's name (``cwd`` in its first records), else its folder's."""
    folder = found.path.parent
    folder = folder.parent if folder.name == "chats" else folder  # Gemini CLI: <project>/chats/
    name = project_name(_cwd(found.path)) or folder.name
    return clean_field(name or "?", PROJECT_CHARS)


def _cwd(path: Path) -> str | None:
    """``cwd`` (Claude Code: on each record; Codex: in ``session_meta``'s payload), if early."""
    try:
        with path.open("rb") as stream:
            head = stream.read(_HEAD_BYTES)
    except OSError:
        return None
    for line in head.split(b"\n")[:_HEAD_LINES]:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        payload = record.get("payload")
        for holder in (record, payload if isinstance(payload, dict) else {}):
            cwd = holder.get("cwd")
            if isinstance(cwd, str) and cwd:
                return cwd
    return None


def _when(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))
