"""``ClaudeCodeMapper``: one Claude Code session record at a time → observations.

sans-IO: ``feed`` takes one decoded JSONL record, ``finish`` closes what is
open (a record fed after it — a watched file that grew again — starts the
same run again: ``_reopen``); reading files is the loader's job (``read_stored`` is how it lends the
mapper the session's stored outputs). A file and a growing file map alike.

- ``assistant`` records: text → ``message``; thinking → ``message`` with role
  ``thinking``; ``tool_use`` → ``tool-call``; ``message.usage`` → one
  ``usage`` per model turn.
- ``user`` records: text → ``message``; ``tool_result`` → the call's
  ``tool-result`` (paired by id, whatever the order), mapped by its tool.
- Older sessions keep a sub-agent's records in the same file (``isSidechain``):
  they go through a child mapper marked with the Task/Agent call's id.
- The other types Claude Code writes are skipped by name (``record_types``); a
  type it does not list is said once as a note (a later version's type may
  hold calls: never a silent drop). A record of the wrong shape raises
  ``SessionLineError``; a bad piece of a good record becomes a note
  (``take_notes``), and the rest of the record is mapped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Observation, RunEnded, RunStarted
from toolview.hosts.claude_code.record_types import KNOWN_RECORDS
from toolview.hosts.claude_code.records import Stamp, make_stamp, plain_text, read_message
from toolview.hosts.claude_code.stored import ReadStored
from toolview.hosts.claude_code.turns import Turns
from toolview.hosts.sessions import SessionLineError, decode_record

__all__ = ["ClaudeCodeMapper", "ReadStored"]

_OWN_TYPES: Final = frozenset({"user", "assistant"})
_SAID: Final = 100  # unknown types said per session, at most: a flood of new names is one bug
# the agent's own title records, the field holding the words, and their rank: a user's
# /rename (custom-title) outranks the CLI's generated one, which outranks a summary
_TITLES: Final = {
    "summary": ("summary", 0),
    "ai-title": ("aiTitle", 1),
    "custom-title": ("customTitle", 2),
}


class ClaudeCodeMapper:
    """Maps one Claude Code session file (or a sub-agent's) into observations."""

    def __init__(
        self, *, parent_call_id: str | None = None, read_stored: ReadStored | None = None
    ) -> None:
        self.parent_call_id = parent_call_id
        self.session_id: str | None = None
        self.run_id: str | None = None
        self._ended = False
        self._last_time: object = None
        self.notes: list[str] = []
        self.subagents: list[tuple[str, str]] = []
        self.read_stored = read_stored
        self._turns = Turns(self, read_stored)
        self._chains: dict[str, ClaudeCodeMapper] = {}
        self._unknown: set[str] = set()
        self._title: tuple[int, str] | None = None  # the best title record so far (rank, words)

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one JSON line and map it; ``SessionLineError`` if it is malformed."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one record means (often none); never raises but ``SessionLineError``."""
        if not isinstance(record, Mapping):
            raise SessionLineError("the record is not a JSON object")
        kind = record.get("type")
        if not isinstance(kind, str):
            raise SessionLineError("the record has no `type` string")
        if kind in _TITLES:
            return self._title_record(kind, record)
        if kind not in _OWN_TYPES:
            self._skip(kind)
            return []
        try:
            return self._record(kind, record)
        except SessionLineError:
            raise
        except Exception as exc:  # a last resort: the line is reported, the session goes on
            raise SessionLineError(f"unreadable {kind} record ({type(exc).__name__})") from None

    def _skip(self, kind: str) -> None:
        """A type skipped by name is skipped; one this reader does not know is said, once."""
        if kind not in KNOWN_RECORDS and kind not in self._unknown and len(self._unknown) < _SAID:
            self._unknown.add(kind)
            self.notes.append(f"a Claude Code record of type {kind[:60]!r} is not shown")

    def _title_record(self, kind: str, record: Mapping[str, object]) -> list[Observation]:
        """The agent's own title (``RunStarted.title``): held for the run's start, or, once the
        run is open (a /rename mid-session), restated by a run-started of the same run (a
        pending call stays pending, a final one final: the call-state table)."""
        field, rank = _TITLES[kind]
        words = record.get(field)
        if not (isinstance(words, str) and words.strip()) or rank < (self._title or (0, ""))[0]:
            return []
        self._title = (rank, words)
        if self.run_id is None or self._ended:
            return []
        return [RunStarted(run_id=self.run_id, title=words, **self._stamp(None))]

    def _session(self, record: Mapping[str, object]) -> dict[str, str]:
        """The session's folder, branch and own title, as far as known (``RunStarted``)."""
        cwd, branch = record.get("cwd"), record.get("gitBranch")
        known = {
            "cwd": cwd if isinstance(cwd, str) else "",
            "branch": branch if isinstance(branch, str) else "",
            "title": self._title[1] if self._title else "",
        }
        return {name: value for name, value in known.items() if value}

    def take_notes(self) -> list[str]:
        """Notes about pieces of records that were left out since the last call."""
        notes = list(self.notes)
        self.notes.clear()  # the same list: the turns write to it
        return notes

    def take_subagents(self) -> list[tuple[str, str]]:
        """``(call id, agent id)`` of each Task/Agent call finished since the last call.

        The agent id is ``""`` when the result does not say it (a sub-agent's own
        results carry no ``toolUseResult``): the loader then finds the file by
        the call id its ``agent-<id>.meta.json`` names.
        """
        links = list(self.subagents)
        self.subagents.clear()
        return links

    def finish(self) -> list[Observation]:
        """End of input: the last turn's usage, the sub-agents, the run's end."""
        if self.run_id is None or self._ended:
            return []
        self._ended = True
        stamp = self._stamp(self._last_time)
        # a Task/Agent call still running (and no side chain of its own here): its
        # sub-agent's file may hold what it did
        self.subagents.extend((call_id, "") for call_id, _ in self._turns.open_agent_calls())
        out = self._turns.finish(stamp)
        pending = self._turns.open_calls()
        reason: str | msgspec.UnsetType = msgspec.UNSET
        if pending:
            plural = "s" if pending != 1 else ""
            reason = f"the session ends with {pending} call{plural} still without a result"
        out.append(RunEnded(run_id=self.run_id, outcome="completed", reason=reason, **stamp))
        return out

    def _record(self, kind: str, record: Mapping[str, object]) -> list[Observation]:
        stamp = self._stamp(record.get("timestamp"))
        out = self._reopen(stamp, record)
        if self.parent_call_id is None and record.get("isSidechain") is True:
            routed = self._sidechain(record)
            if routed is not None:
                return out + routed
        message = read_message(record)
        if "at" in stamp:
            self._last_time = stamp["at"]
        out += self._start(record, stamp)
        if kind == "assistant":
            out.extend(self._turns.assistant(message, stamp))
        else:
            out.extend(self._turns.user(record, message, stamp))
        return out

    def _stamp(self, timestamp: object) -> Stamp:
        return make_stamp(timestamp, self.parent_call_id)

    def _reopen(self, stamp: Stamp, record: Mapping[str, object]) -> list[Observation]:
        """A record after ``finish``: the same run starts again (the run id is the session's).

        Why the same run and not a new one: the session goes on, so its calls
        stay one run's — a call ``finish`` left aborted is pending again, as
        the call-state table says of a run that restarts — and the counts are
        the file's as ``show`` reads it whole. What ``finish`` gave (the held
        usage, the run's end) is not given again.
        """
        if not self._ended or self.run_id is None:
            return []
        self._ended = False
        return [RunStarted(run_id=self.run_id, **self._session(record), **stamp)]

    def _start(self, record: Mapping[str, object], stamp: Stamp) -> list[Observation]:
        if self.run_id is not None:
            return []
        session = record.get("sessionId")
        self.session_id = session if isinstance(session, str) and session else "session"
        agent = record.get("agentId")
        self.run_id = f"claude-{self.session_id}"
        if self.parent_call_id is not None:
            suffix = agent if isinstance(agent, str) and agent else self.parent_call_id
            self.run_id += f"/agent-{suffix}"
        return [RunStarted(run_id=self.run_id, **self._session(record), **stamp)]

    def _sidechain(self, record: Mapping[str, object]) -> list[Observation] | None:
        """A sub-agent's record in the parent's file: to the child mapper of its chain."""
        parent = record.get("parentUuid")
        child = self._chains.get(parent) if isinstance(parent, str) else None
        if child is None:
            child = self._adopt(record)
        if child is None:
            return None  # no Task/Agent call to hang it on: mapped as the thread's own
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            self._chains[uuid] = child
        out = child.feed(record)
        self.notes.extend(child.take_notes())
        return out

    def _adopt(self, record: Mapping[str, object]) -> ClaudeCodeMapper | None:
        """The Task/Agent call a new side chain belongs to: the one given its first prompt."""
        calls = self._turns.open_agent_calls()
        if not calls:
            return None
        message = record.get("message")
        prompt = plain_text(message.get("content")) if isinstance(message, Mapping) else None
        call_id = next((call for call, asked in calls if asked == prompt), calls[0][0])
        child = ClaudeCodeMapper(parent_call_id=call_id, read_stored=self.read_stored)
        self._turns.children[call_id] = child
        return child
