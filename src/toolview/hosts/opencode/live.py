"""OpenCode's database followed live: each part drawn once, when it has settled.

Why not ``load_observations`` again on each change: OpenCode updates rows in
place — a tool part goes ``pending → running → completed`` in one row, a
text part grows while the model streams — so reading again would draw a
call twice and text half-written. ``LiveSession`` remembers, per part, what
it has handed on: a tool call at first sight, its result once its state has
ended; a text or thinking part once it has ended (``time.end``; a user's at
once); anything else at first sight. A part not settled yet holds the ones
after it back, so the order is the session's. ``LiveDatabase`` does that for
every top-level session, a new one as it appears. Sans-IO on the changes:
the caller says when the database changed (``cli.show_follow_db``); each
read is one short read-only transaction (``database.connect``). Sub-agents'
sessions are not followed live (their parts appear with ``load``).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Final

from toolview.contract import Observation
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.opencode.database import PartRow, connect, parts, sessions
from toolview.hosts.opencode.mapper import OpenCodeMapper
from toolview.hosts.opencode.tools import ENDED

__all__ = ["LiveDatabase", "LiveSession", "database_version"]

_CALLED: Final = 1  # a tool part whose call was handed on, its result not yet
_DONE: Final = 2


class LiveSession:
    """One session's parts, each handed on once it has settled."""

    def __init__(self, session_id: str) -> None:
        self.mapper = OpenCodeMapper(session_id)
        self.session_id = session_id
        self._stage: dict[str, int] = {}

    def read(self, db: sqlite3.Connection) -> list[Observation]:
        """What settled since the last read, in the session's order."""
        out: list[Observation] = []
        for row in list(parts(db, self.session_id)):
            stage = self._stage.get(row.id, 0)
            if stage == _DONE:
                continue
            if not _settled(row):
                break  # a part still being written holds back the ones after it
            if stage == _CALLED:
                if _ended(row):
                    out += self.mapper.settle(row)
                    self._stage[row.id] = _DONE
                continue
            out += self.mapper.feed(row)
            self._stage[row.id] = _CALLED if _is_tool(row) and not _ended(row) else _DONE
        return out

    def take_notes(self) -> list[str]:
        """What the mapper left out since last asked."""
        return self.mapper.take_notes()

    def position(self) -> bytes:
        """What was handed on, as a read position (``serve --watch-agents`` stores it)."""
        return json.dumps(self._stage, separators=(",", ":"), sort_keys=True).encode()

    def resume(self, db: sqlite3.Connection, position: bytes) -> None:
        """Back to ``position``: the parts handed on fed again, their output dropped, so the
        mapper knows its runs and calls as when the position was stored."""
        try:
            stored = json.loads(position)
        except ValueError:
            stored = {}
        stages = (
            {k: v for k, v in stored.items() if v in (_CALLED, _DONE)}
            if isinstance(stored, dict)
            else {}
        )
        for row in list(parts(db, self.session_id)):
            stage = stages.get(row.id)
            if stage is not None:
                self.mapper.feed(row)
                self._stage[row.id] = stage
        self.mapper.take_notes()


class LiveDatabase:
    """Every top-level session of one database, followed (a new one as it appears)."""

    def __init__(self, path: Path, only: str | None = None) -> None:
        self.path = path
        self.only = only
        self.sessions: dict[str, LiveSession] = {}

    def read(self) -> list[Observation | str]:
        """What settled since the last read in every session (a note as a ``str``)."""
        out: list[Observation | str] = []
        with closing(connect(self.path)) as db:
            for row in sessions(self.path):
                if row.parent_id is not None or self.only not in (None, row.id):
                    continue
                live = self.sessions.setdefault(row.id, LiveSession(row.id))
                out += live.read(db)
                out += live.take_notes()
        return out


def database_version(path: Path) -> tuple[tuple[int, int], ...]:
    """The database's and its WAL's (size, mtime ns): any write OpenCode makes changes one."""
    found = []
    for each in (path, path.with_name(f"{path.name}-wal")):
        try:
            info = os.stat(each)
        except OSError:
            found.append((-1, 0))
        else:
            found.append((info.st_size, info.st_mtime_ns))
    return tuple(found)


def _is_tool(row: PartRow) -> bool:
    return row.part is not None and row.part.get("type") == "tool"


def _ended(row: PartRow) -> bool:
    part = row.part or {}
    return as_map(part.get("state")).get("status") in ENDED


def _settled(row: PartRow) -> bool:
    """Whether the part will not change any more (as far as it draws)."""
    part: Mapping[str, object] = row.part or {}
    if as_str(part.get("type")) not in ("text", "reasoning"):
        return True
    if (row.message or {}).get("role") == "user":
        return True
    return as_map(part.get("time")).get("end") is not None
