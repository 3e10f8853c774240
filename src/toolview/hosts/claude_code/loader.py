"""Reading Claude Code session files: streamed, with their sub-agents, never fatal.

A project folder (``~/.claude/projects/<project>/``) holds one ``<session>.jsonl``
per session and, beside it, a ``<session>/`` folder: ``subagents/agent-<id>.jsonl``
(each sub-agent's own session, linked from its Task/Agent call's result by
``toolUseResult.agentId``) and ``tool-results/`` (outputs too long to keep in the
session). A sub-agent's observations are yielded between its call and its
result, marked with the call's id. A line that cannot be read is a
``SessionNote`` at its place, and the rest goes on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from toolview.contract import Observation, RunEnded, ToolResult
from toolview.hosts.claude_code.mapper import ClaudeCodeMapper
from toolview.hosts.claude_code.stored import StoredOutputs
from toolview.hosts.claude_code.subagents import SubagentFiles
from toolview.hosts.cut_lines import with_cuts
from toolview.hosts.sessions import SessionLineError, SessionNote, decode_record, file_lines

__all__ = ["load_observations", "session_files", "sniff"]

Item = Observation | SessionNote
_MAX_DEPTH: Final = 8
_SNIFF_LINES: Final = 8
_OWN_RECORDS: Final = frozenset({"user", "assistant", "system"})
_MARKS: Final = (b'"sessionId":"', b'"uuid":"', b'"type":"')
_GEMINI_PARTS: Final = b'"message":{"role":"user","parts":['  # Qwen Code's prompt record
_BOOKKEEPING: Final = frozenset(
    {"summary", "file-history-snapshot", "queue-operation", "last-prompt", "custom-title"}
)


def sniff(head: bytes) -> bool:
    """Whether the first bytes of a file look like a Claude Code session.

    Decided by the first whole records; when the head holds none (a first
    prompt longer than the head), by the fields every record of the CLI's
    compact JSON carries. Qwen Code's records carry the same fields, but their
    message is Gemini-style ``parts``, never Claude's ``content``: not ours.
    """
    whole = 0
    for line in head.split(b"\n")[:_SNIFF_LINES]:
        if not line.strip():
            continue
        try:
            record = decode_record(line)
        except SessionLineError:
            continue  # a cut last line of the head, or one bad line
        whole += 1
        kind = record.get("type")
        if "kind" in record or not isinstance(kind, str) or _gemini_style(record):
            return False
        if kind in _BOOKKEEPING or (kind in _OWN_RECORDS and "sessionId" in record):
            return True
    if whole:
        return False
    first = head.split(b"\n", 1)[0]
    marked = all(mark in first for mark in _MARKS)
    return first.startswith(b"{") and marked and _GEMINI_PARTS not in first


def _gemini_style(record: Mapping[str, object]) -> bool:
    message = record.get("message")
    return isinstance(message, Mapping) and isinstance(message.get("parts"), list)


def session_files(root: Path) -> list[Path]:
    """The main session files under ``root`` (a file: itself), newest first.

    Sub-agents' files (``subagents/``, or ``agent-*.jsonl`` beside the sessions
    in older versions) are not sessions of their own: their sessions load them.
    """
    if root.is_file():
        return [root]
    found: list[tuple[float, str, Path]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [name for name in dirs if name not in ("subagents", "tool-results")]
        for name in files:
            if name.endswith(".jsonl") and not name.startswith("agent-"):
                path = Path(folder, name)
                try:
                    found.append((path.stat().st_mtime, name, path))
                except OSError:
                    continue  # removed while listing
    found.sort(key=lambda entry: (-entry[0], entry[1]))
    return [path for _, _, path in found]


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """Every observation of the session at ``path``, its sub-agents' included (marked)."""
    yield from _Loader(path.with_suffix("")).load(path, None, 0)


class _Loader:
    """One session's walk: its files, each sub-agent file read once, nesting bounded."""

    def __init__(self, session_dir: Path) -> None:
        self.session_dir = session_dir
        self.stored = StoredOutputs(session_dir)
        self.agents = SubagentFiles(session_dir)
        self.seen: set[str] = set()

    def load(self, path: Path, parent: str | None, depth: int) -> Iterator[Item]:
        mapper = ClaudeCodeMapper(parent_call_id=parent, read_stored=self.stored)
        try:
            for number, line in file_lines(path):
                try:
                    out = with_cuts(mapper.feed_line(line), line)
                except SessionLineError as exc:
                    yield SessionNote(f"{path.name} line {number}: {exc.reason}")
                    continue
                yield from self.nest(mapper, out, f"{path.name} line {number}", path, depth)
        except OSError as exc:
            yield SessionNote(f"{path.name}: could not be read ({exc.strerror or exc})")
        yield from self.nest(mapper, mapper.finish(), path.name, path, depth)

    def nest(
        self, mapper: ClaudeCodeMapper, out: list[Observation], where: str, path: Path, depth: int
    ) -> Iterator[Item]:
        """``out``, each Task/Agent call's sub-agent file just before the call's result.

        A call the session ended without a result (the agent was stopped while
        its sub-agent worked) has its sub-agent just before the run's end.
        """
        for note in mapper.take_notes():
            yield SessionNote(f"{where}: {note}")
        links = dict(mapper.take_subagents())
        start = 0
        for index, observation in enumerate(out):
            if not links:
                break
            if isinstance(observation, ToolResult) and observation.tool_call_id in links:
                calls = [observation.tool_call_id]
            elif isinstance(observation, RunEnded) and index == len(out) - 1:
                calls = list(links)  # the run's own end: the calls left without a result
            else:
                continue
            yield from out[start:index]
            start = index
            for call_id in calls:
                yield from self.subagent(links.pop(call_id), call_id, path, depth)
        yield from out[start:]

    def subagent(self, agent: str, call_id: str, path: Path, depth: int) -> Iterator[Item]:
        """The sub-agent file of ``call_id``, once, if it is there and nesting allows."""
        file = self.agents.find(agent, call_id, path.parent) if depth < _MAX_DEPTH else None
        if file is None or str(file) in self.seen:
            return
        self.seen.add(str(file))
        yield from self.load(file, call_id, depth + 1)
