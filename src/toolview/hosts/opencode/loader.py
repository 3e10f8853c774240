"""OpenCode's database: find it, tell it apart, and stream its sessions' observations.

One ``opencode.db`` holds every session of the user (``~/.local/share/opencode``).
``load_observations`` reads its top-level sessions oldest first; a sub-agent's
session (``parent_id`` set, named by its ``task`` call's ``metadata.sessionId``)
is read right after that call, its observations marked with the call's id.
A database that cannot be opened or read is a ``SessionNote``, never a crash.

The database is many sessions, so ``sessions`` and ``show ses_…`` take them one
by one (``top_sessions``, ``load_session``): each top-level session is a line
of its own, dated by its last change, and opened by its OpenCode id.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Final

from toolview.contract import Observation, ToolCall
from toolview.hosts.opencode import legacy
from toolview.hosts.opencode.database import PartRow, SessionRow, connect, parts, sessions
from toolview.hosts.opencode.mapper import OpenCodeMapper
from toolview.hosts.sessions import SessionNote

__all__ = ["load_observations", "load_session", "session_files", "sniff", "top_sessions"]

_MAX_DEPTH: Final = 8
_SQLITE: Final = b"SQLite format 3\x00"
NAME: Final = "opencode.db"
# the title OpenCode gives a session before it names one: no title of the user's
_PLACEHOLDER: Final = re.compile(r"(New|Child) session - \d{4}-")
_PartsOf = Callable[[str], Iterable[PartRow]]


def sniff(head: bytes) -> bool:
    """Whether ``head`` starts like an SQLite database or a legacy session's JSON (the
    file's name and place say whose)."""
    return head.startswith(_SQLITE) or (head.lstrip()[:1] == b"{" and b'"ses_' in head)


def session_files(root: Path) -> list[Path]:
    """The OpenCode database under ``root`` (the folder OpenCode keeps it in, or the file),
    and the session files of its legacy ``storage/`` folder (or of ``root``, that folder)."""
    if root.is_file():
        return [root] if root.name == NAME or legacy.is_session_file(root) else []
    found = root / NAME
    storage = root if (root / "session").is_dir() else root / "storage"
    return ([found] if found.is_file() else []) + list(legacy.session_file_rows(storage))


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """Every top-level session's observations, oldest first, sub-agents nested."""
    return _load(path, None)


def load_session(path: Path, session_id: str) -> Iterator[Observation | SessionNote]:
    """One top-level session's observations (its OpenCode id), sub-agents nested."""
    return _load(path, session_id)


def top_sessions(path: Path) -> list[tuple[str, float]]:
    """The database's top-level sessions: each id with its last change (epoch seconds).
    A database that cannot be read has none (``load_observations`` says why)."""
    try:
        rows = _legacy_rows(path) if legacy.is_session_file(path) else sessions(path)
    except sqlite3.Error:
        return []
    return [(row.id, row.updated_ms / 1000) for row in rows if row.parent_id is None]


def _legacy_rows(path: Path) -> list[SessionRow]:
    row = legacy.session_row(path)
    return [] if row is None else [row]


def _load(path: Path, only: str | None) -> Iterator[Observation | SessionNote]:
    if legacy.is_session_file(path):
        yield from _legacy(path, only)
        return
    try:
        rows = sessions(path)
        with closing(connect(path)) as db:
            yield from _walk(rows, only, lambda session_id: list(parts(db, session_id)))
    except sqlite3.Error as exc:
        yield SessionNote(f"{path.name}: cannot be read as OpenCode's database ({exc})")


def _legacy(path: Path, only: str | None) -> Iterator[Observation | SessionNote]:
    """One legacy session file's session (``only``, or the file's own), sub-agents nested
    from the same storage folder."""
    row = legacy.session_row(path)
    if row is not None:  # a sub-agent's own file opened: its session, as a top one
        row = replace(row, parent_id=None)
    if row is None or only not in (None, row.id):
        yield SessionNote(f"{path.name}: not an OpenCode session this reader can read")
        return
    storage = legacy.storage_of(path)
    rows = [each for each in legacy.sessions(storage) if each.parent_id is not None] + [row]
    yield from _walk(rows, row.id, lambda session_id: legacy.parts(storage, session_id))


def _walk(
    rows: list[SessionRow], only: str | None, parts_of: _PartsOf
) -> Iterator[Observation | SessionNote]:
    children = {row.id: row for row in rows if row.parent_id is not None}
    for row in rows:
        if row.parent_id is None and only in (None, row.id):
            yield from _session(parts_of, row, None, children, 0)


def _session(
    db: _PartsOf,
    row: SessionRow,
    call_id: str | None,
    children: dict[str, SessionRow],
    depth: int,
) -> Iterator[Observation | SessionNote]:
    mapper = OpenCodeMapper(row.id, parent_call_id=call_id)
    if call_id is None:  # the session's folder and title: the index's project and name
        mapper.cwd = row.directory
        mapper.title = "" if _PLACEHOLDER.match(row.title) else row.title
    for part in db(row.id):  # whole (``_load``): a sub-agent is read on the same connection
        for item in mapper.feed(part):
            yield item
            if isinstance(item, ToolCall):
                yield from _subagents(db, mapper, item.tool_call_id, children, depth)
    yield from mapper.finish()
    yield from (SessionNote(f"session {row.id[:64]}: {note}") for note in mapper.take_notes())


def _subagents(
    db: _PartsOf,
    mapper: OpenCodeMapper,
    call_id: str,
    children: dict[str, SessionRow],
    depth: int,
) -> Iterator[Observation | SessionNote]:
    for child_id, linked in mapper.subagents:
        child = children.pop(child_id, None) if linked == call_id else None
        if child is not None and depth < _MAX_DEPTH:
            yield from _session(db, child, call_id, children, depth + 1)
