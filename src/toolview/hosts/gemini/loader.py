"""Gemini CLI chat files: find them, tell them apart, and stream their observations.

Gemini CLI keeps a project's chats in ``~/.gemini/tmp/<project>/chats/``:
``session-<time>-<id8>.jsonl`` since 0.4x (a change log, read line by line),
``session-<time>-<id8>.json`` before (one pretty-printed record, read whole;
a resumed old session is carried on in a ``.jsonl`` beside it, which then
stands for it). A sub-agent's chat is ``chats/<main session id>/<agent
id>.jsonl`` (every level's, flat under the main session's id); the call that
ran it names the agent id (``agentId``), so its observations are read right
after that call, marked with the call's id, before what follows. The project's
folder is written beside its chats, in ``<project>/.project_root``: it is the
session's ``cwd`` (the index's project), not the chat file.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import msgspec

from toolview.contract import Observation, ToolCall
from toolview.hosts.gemini.mapper import GeminiMapper
from toolview.hosts.sessions import SessionNote, file_lines, mapped_line

__all__ = ["load_observations", "project_root", "session_files", "sniff"]

_MAX_DEPTH: Final = 8
_MAX_JSON: Final = 256 << 20  # an old .json chat is read whole: bounded
_AGENT_ID: Final = re.compile(r"[0-9A-Za-z_-]{1,80}")
_HEAD: Final = re.compile(rb'\A\s*\{\s*"sessionId"\s*:\s*"[^"]{1,128}"\s*,\s*"projectHash"\s*:')
_JSON: Final = msgspec.json.Decoder()
_ABSOLUTE: Final = re.compile(r"/|[A-Za-z]:[\\/]")  # POSIX, or Windows' C:\\
_MAX_ROOT: Final = 4096  # a folder's path: longer is no path Gemini CLI wrote


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Gemini CLI chat file."""
    return _HEAD.match(head[:4096]) is not None


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a chat file and of its sub-agents' (marked), streamed.

    A line that cannot be read, a rewind and a replaced history become
    ``SessionNote``s and the rest goes on.
    """
    yield from _load(path, path.parent, None, set(), 0)


def _load(
    path: Path, chats: Path, parent_call_id: str | None, seen: set[str], depth: int
) -> Iterator[Observation | SessionNote]:
    mapper = GeminiMapper(parent_call_id=parent_call_id)
    mapper.cwd = project_root(chats.parent) if parent_call_id is None else ""
    try:
        for where, record in _records(path):
            for item in mapped_line(mapper, record, where):
                yield item
                if isinstance(item, ToolCall):
                    yield from _subagents(mapper, item.tool_call_id, chats, seen, depth)
    except OSError as exc:
        yield SessionNote(f"{path.name}: cannot be read ({exc.strerror or exc})")
    yield from mapper.finish()
    yield from (SessionNote(f"{path.name}: {note}") for note in mapper.take_notes())


def project_root(project: Path) -> str:
    """The folder a Gemini CLI project stands for (its ``.project_root``), "" when unknown.

    Read with care, since anything may sit there: a regular file only (a FIFO would
    block the reader), at most ``_MAX_ROOT`` bytes, one absolute path on one line.
    """
    try:
        fd = os.open(project / ".project_root", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        raw = handle.read(_MAX_ROOT + 1)
    text = raw.decode("utf-8", "replace").strip()
    if len(raw) > _MAX_ROOT or not _ABSOLUTE.match(text) or "\n" in text:
        return ""
    return text


def _records(path: Path) -> Iterator[tuple[str, bytes]]:
    if path.suffix == ".json":  # the older format: one record, pretty-printed
        with path.open("rb") as handle:
            yield path.name, handle.read(_MAX_JSON)
        return
    for number, line in file_lines(path):
        yield f"{path.name} line {number}", line


def _subagents(
    mapper: GeminiMapper, call_id: str, chats: Path, seen: set[str], depth: int
) -> Iterator[Observation | SessionNote]:
    """The chats of the sub-agents ``call_id`` ran, marked with it."""
    for agent, linked in mapper.subagents:
        if linked != call_id or agent in seen:
            continue
        seen.add(agent)
        child = _chat_of(chats, mapper.session_id, agent)
        if child is None or depth >= _MAX_DEPTH:
            yield SessionNote(
                f"the sub-agent {agent[:64]} of call {call_id[:64]}: its chat was not found"
            )
            continue
        yield from _load(child, chats, call_id, seen, depth + 1)


def _chat_of(chats: Path, session: str | None, agent: str) -> Path | None:
    """``chats/<main session id>/<agent id>.jsonl`` (or ``.json``), if it is there."""
    if _AGENT_ID.fullmatch(agent) is None:
        return None
    folders = [chats / session] if session and _AGENT_ID.fullmatch(session) else []
    folders += [chats.parent / session] if session and chats.name == session else []
    for folder in folders:
        for suffix in (".jsonl", ".json"):
            if (folder / f"{agent}{suffix}").is_file():
                return folder / f"{agent}{suffix}"
    return None


def session_files(root: Path) -> list[Path]:
    """The main (not sub-agent) chat files under ``root``, newest first; an old ``.json``
    only when no ``.jsonl`` carries it on."""
    if root.is_file():
        return [root]
    found = [p for p in root.rglob("session-*.json*") if p.suffix in (".json", ".jsonl")]
    lines = {p.with_suffix("") for p in found if p.suffix == ".jsonl"}
    kept = [
        p for p in found if p.is_file() and not (p.suffix == ".json" and p.with_suffix("") in lines)
    ]
    return sorted(kept, key=_mtime, reverse=True)


def _mtime(path: Path) -> tuple[float, str]:
    try:
        return path.stat().st_mtime, path.name
    except OSError:
        return 0.0, path.name
