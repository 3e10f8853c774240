"""``GeminiMapper``: one Gemini CLI chat record in, the observations it makes out.

A chat file (``session-*.jsonl``, 0.4x on) is a change log, not a transcript:
a metadata line, then each message as a line *every time it changes* (a
``gemini`` message is written bare, then again with its tokens, again with
its finished ``toolCalls``), ``{"$set": {...}}`` lines that update metadata
or replace the whole message list (``messages``: the session's opening
context, a compressed history), and ``{"$rewindTo": id}`` when the user
rewound (that message and all after it are undone). The older ``.json``
file is the whole record at once: ``{sessionId, …, messages: [...]}``.

So the mapper keeps, per message id, what it has drawn, and draws only what
is new: a message line repeated with more in it adds its new thoughts,
tokens and finished calls; a list replaced by ``$set`` draws the messages
not seen; an undone message stays drawn (an observation is never taken
back) and a note says it was undone. Sans-IO: ``feed_line`` per line,
``finish`` at the end. A record of a shape no version wrote raises
``SessionLineError`` (a visible note); ``take_notes`` gives the rest to say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from toolview.contract import Message, Observation, RunStarted
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.gemini.messages import Drawn, message_text, new_thoughts, usage_of
from toolview.hosts.gemini.tools import FINAL_STATUSES, call_of, result_of
from toolview.hosts.run_marks import RunMarks
from toolview.hosts.sessions import SessionLineError, decode_record, utc_timestamp

__all__ = ["GeminiMapper"]

# the CLI's own words in a user message: its opening context, a compressed history's summary
_CONTEXT: Final = ("<session_context>", "<state_snapshot>")
_NOTICES: Final = frozenset({"info", "warning", "error"})


class GeminiMapper(RunMarks):
    """Maps a Gemini CLI chat file, record by record, to observations."""

    def __init__(self, *, parent_call_id: str | None = None) -> None:
        super().__init__("gemini", parent_call_id)
        self.session_id: str | None = None
        self.subagents: list[tuple[str, str]] = []  # (the sub-agent's id, its spawning call)
        self._drawn: dict[str, Drawn] = {}
        self._live: list[str] = []  # the conversation's message ids now, in order
        self._notes: list[str] = []
        self._closed: str | None = None  # the run ``finish`` ended, while it may reopen

    def take_notes(self) -> list[str]:
        """What should be said beside the observations (rewinds, replaced histories, notices)."""
        notes, self._notes = self._notes, []
        return notes

    def feed_line(self, line: bytes) -> list[Observation]:
        """Decode one chat line and map it; a line that is no record raises ``SessionLineError``."""
        return self.feed(decode_record(line))

    def feed(self, record: Mapping[str, object]) -> list[Observation]:
        """The observations one decoded record makes (often none)."""
        if self._closed is not None:  # a record after ``finish``: a watched chat grew again
            self._run, self._closed = self._closed, None
            self._out.append(RunStarted(run_id=self._run))  # the same run, its calls pending
        if isinstance(record.get("$rewindTo"), str):
            self._rewind(str(record["$rewindTo"]))
        elif isinstance(record.get("id"), str):
            self._message(record)
        elif isinstance(record.get("$set"), Mapping):
            self._replace(as_map(record["$set"]).get("messages"))
        elif isinstance(record.get("sessionId"), str):
            self.session_id = self.session_id or str(record["sessionId"])
            self._replace(record.get("messages"), said=False)  # the older .json: all at once
        else:
            keys = ", ".join(sorted(record)[:5])[:120]
            raise SessionLineError(f"a Gemini CLI record of an unknown shape ({keys}) is not shown")
        return self._take()

    def finish(self) -> list[Observation]:
        """End of input: the open run ends (``error`` if the CLI's last notice was one); a
        record fed after it reopens that run (``serve --watch`` finishes an idle file)."""
        closed = self._run
        self._end_run()
        self._closed = closed
        return self._take()

    def _message(self, message: Mapping[str, object]) -> None:
        message_id, kind = str(message["id"]), as_str(message.get("type"))
        drawn = self._drawn.get(message_id)
        if drawn is None:
            drawn = self._drawn[message_id] = Drawn()
            self._live.append(message_id)
        at = utc_timestamp(message.get("timestamp"))
        text = message_text(message.get("content"))
        if kind == "user":
            if text.strip() and not drawn.text and not text.startswith(_CONTEXT):
                self._start_run(at)
                self._add(Message(role="user", text=text), at)
            drawn.text = drawn.text or bool(text.strip())
        elif kind == "gemini":
            self._gemini(message, drawn, text, at)
        elif kind in _NOTICES:
            if not drawn.text:
                self._notes.append(f"Gemini CLI {kind}: {text[:500]}")
                self._failed = kind == "error"
            drawn.text = True
        else:
            raise SessionLineError(f"a Gemini CLI message of type {str(kind)[:40]!r} is not shown")

    def _gemini(
        self, message: Mapping[str, object], drawn: Drawn, text: str, at: str | None
    ) -> None:
        if self._run is None:
            self._start_run(at)
        self._failed = False
        for thought in new_thoughts(message.get("thoughts"), drawn):
            self._add(thought, at)
        if text.strip() and not drawn.text:
            drawn.text = True
            self._add(Message(role="assistant", text=text), at)
        tokens = message.get("tokens")
        if isinstance(tokens, Mapping) and not drawn.usage:
            drawn.usage = True
            self._add(usage_of(as_str(message.get("model")) or "unknown", tokens, self._run), at)
        calls = message.get("toolCalls")
        for record in calls if isinstance(calls, list) else []:
            self._call(as_map(record), drawn, at)

    def _call(self, record: Mapping[str, object], drawn: Drawn, at: str | None) -> None:
        call = call_of(record)
        if call is None or call.tool_call_id in drawn.results:
            return
        if call.tool_call_id not in drawn.calls:
            drawn.calls.add(call.tool_call_id)
            self._add(call, at)
        agent = as_str(record.get("agentId"))
        if agent is not None and (agent, call.tool_call_id) not in self.subagents:
            self.subagents.append((agent, call.tool_call_id))
        if record.get("status") in FINAL_STATUSES:
            drawn.results.add(call.tool_call_id)
            ended = utc_timestamp(record.get("timestamp")) or at
            self._out.append(result_of(call, record, ended))

    def _replace(self, messages: object, *, said: bool = True) -> None:
        """A whole message list: the messages not seen are drawn; those it drops are said."""
        if not isinstance(messages, list):
            return
        records = [as_map(m) for m in messages if isinstance(as_map(m).get("id"), str)]
        kept = {str(m["id"]) for m in records}
        gone = [i for i in self._live if i not in kept]
        if gone and said:
            self._notes.append(
                f"Gemini CLI replaced its history: {len(gone)} earlier messages left it"
                " (a compressed or edited history; still shown here)"
            )
        self._live = []
        for message in records:
            self._message(message)

    def _rewind(self, message_id: str) -> None:
        undone = self._live[self._live.index(message_id) :] if message_id in self._live else []
        self._live = self._live[: len(self._live) - len(undone)] if undone else []
        count = len(undone) or "all the"
        self._notes.append(f"the user rewound: {count} messages from {message_id[:40]} on "
                           "were undone in Gemini CLI (still shown here)")  # fmt: skip
        self._end_run()

    def _run_prefix(self) -> str:
        return self.session_id or "gemini"
