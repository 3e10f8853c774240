"""``opencode.db`` opened read-only, and the rows toolview reads from it.

Why a ``file:…?mode=ro`` URI and nothing else: OpenCode is writing this
database while we read it (WAL journal). A read-only connection reads the
WAL beside the file (it needs the ``-shm`` index OpenCode keeps) and never
writes: no checkpoint, no journal of ours, no lock held past a query. Each
read is one short transaction, so a session OpenCode is writing is seen as
of that moment, whole rows only.

The tables (OpenCode 1.2 on, ``packages/opencode/src/session/session.sql.ts``):
``session`` (``id``, ``parent_id``, ``directory``, ``title``, ``time_*``),
``message`` and ``part`` (``id``, ``session_id``, ``time_created``, ``data``: the
JSON OpenCode's storage used to hold in one file each).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import quote

import msgspec

__all__ = ["PartRow", "SessionRow", "connect", "decode", "parts", "sessions"]

_JSON: Final = msgspec.json.Decoder()
_SESSIONS: Final = (
    "SELECT id, parent_id, directory, title, time_created, time_updated FROM session"
    " ORDER BY time_created, id"
)
_PARTS: Final = (
    "SELECT p.id, p.message_id, m.data, p.data FROM part p JOIN message m ON m.id = p.message_id"
    " WHERE p.session_id = ? ORDER BY m.time_created, m.id, p.id"
)


@dataclass(frozen=True)
class SessionRow:
    """One ``session`` row: a top-level session, or a sub-agent's (``parent_id``)."""

    id: str
    parent_id: str | None
    directory: str
    title: str
    created_ms: int
    updated_ms: int


@dataclass(frozen=True)
class PartRow:
    """One ``part`` with its message's JSON; ``None`` for JSON that does not decode."""

    id: str
    message_id: str
    message: Mapping[str, object] | None
    part: Mapping[str, object] | None


def connect(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only (``sqlite3.OperationalError`` if it cannot be)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    return sqlite3.connect(uri, uri=True, check_same_thread=False)


def sessions(path: Path) -> list[SessionRow]:
    """Every session in the database, oldest first."""
    with closing(connect(path)) as db:
        rows = db.execute(_SESSIONS).fetchall()
    return [
        SessionRow(
            str(r[0]),
            r[1] if isinstance(r[1], str) else None,
            str(r[2] or ""),
            str(r[3] or ""),
            int(r[4] or 0),
            int(r[5] or 0),
        )
        for r in rows
    ]


def parts(db: sqlite3.Connection, session_id: str) -> Iterator[PartRow]:
    """A session's parts in order (its messages', each message's in id order: OpenCode's
    ids are time-ordered), streamed from one read transaction."""
    for part_id, message_id, message, part in db.execute(_PARTS, (session_id,)):
        yield PartRow(str(part_id), str(message_id), decode(message), decode(part))


def decode(data: object) -> Mapping[str, object] | None:
    """A row's JSON object; None for anything else (a row is never trusted to decode)."""
    try:
        found = _JSON.decode(data) if isinstance(data, str | bytes) else None
    except msgspec.DecodeError:
        return None
    return found if isinstance(found, dict) else None
