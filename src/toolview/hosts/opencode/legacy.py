"""OpenCode's storage before 1.2: one JSON file per session, message and part.

Before its SQLite database, OpenCode kept ``~/.local/share/opencode/storage/``
(``packages/opencode/src/storage/storage.ts``, 1.1.x): ``session/<projectID>/
<sessionID>.json``, ``message/<sessionID>/<messageID>.json`` and
``part/<messageID>/<partID>.json``. A part file holds the very JSON a
database ``part.data`` holds, so these rows feed the same ``OpenCodeMapper``.

Why every read goes through ``read_regular`` and every folder is checked not
to be a link: a storage folder is a pile of files anyone may hand you, and a
link in it could point at any file of the machine, a FIFO would block ``show``
for ever, a huge part would fill memory. An id found inside a file names a
folder only when it is an id (``_ID``): ``../..`` is never a path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from toolview.hosts.claude_code.stored import read_regular
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.opencode.database import PartRow, SessionRow, decode

__all__ = [
    "MAX_FILE_BYTES",
    "is_session_file",
    "parts",
    "session_file_rows",
    "session_row",
    "sessions",
    "storage_of",
]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""A file larger than this is not read (a note says so, as for bad JSON)."""
_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,128}")


def storage_of(session_file: Path) -> Path:
    """The storage folder of ``storage/session/<projectID>/<sessionID>.json``."""
    return session_file.parents[2]


def is_session_file(path: Path) -> bool:
    """Whether ``path`` sits where OpenCode's storage keeps a session's facts."""
    return path.suffix == ".json" and len(path.parents) > 2 and path.parents[1].name == "session"


def session_file_rows(storage: Path) -> Iterator[Path]:
    """Every ``session/<projectID>/<sessionID>.json`` file, by name (links skipped)."""
    for project in _listed(storage / "session"):
        yield from (each for each in _listed(project) if each.suffix == ".json")


def sessions(storage: Path) -> list[SessionRow]:
    """Every session of the storage folder (sub-agents' too), oldest first."""
    rows = [row for path in session_file_rows(storage) if (row := session_row(path)) is not None]
    return sorted(rows, key=lambda row: (row.created_ms, row.id))


def parts(storage: Path, session_id: str) -> Iterator[PartRow]:
    """A session's parts: its messages by creation then id, each one's parts by id."""
    if not _ID.fullmatch(session_id):
        return
    messages = [(path.stem, _read(path)) for path in _records(storage / "message" / session_id)]
    messages.sort(key=lambda found: (_ms(found[1], "created"), found[0]))
    for message_id, message in messages:
        for path in _records(storage / "part" / message_id):
            yield PartRow(path.stem, message_id, message, _read(path))


def _records(folder: Path) -> list[Path]:
    """``folder``'s ``<id>.json`` files: not OpenCode's half-written ``.oc-….tmp`` ones."""
    return [path for path in _listed(folder) if path.suffix == ".json" and _ID.fullmatch(path.stem)]


def session_row(path: Path) -> SessionRow | None:
    """The session a ``session/<projectID>/<id>.json`` file holds; None if none is read."""
    found = _read(path)
    session_id = as_str((found or {}).get("id"))
    if found is None or session_id is None or not _ID.fullmatch(session_id):
        return None
    parent = as_str(found.get("parentID"))
    return SessionRow(
        session_id,
        parent,
        as_str(found.get("directory")) or "",
        as_str(found.get("title")) or "",
        _ms(found, "created"),
        _ms(found, "updated") or _ms(found, "created"),
    )


def _listed(folder: Path) -> list[Path]:
    """``folder``'s entries by name, when it is a real folder (a link to one is not)."""
    if folder.is_symlink() or not folder.is_dir():
        return []
    return sorted((each for each in folder.iterdir() if not each.is_symlink()), key=str)


def _read(path: Path) -> Mapping[str, object] | None:
    """A file's JSON object; None for one that is not a small regular file of JSON."""
    try:
        data = read_regular(path, MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return decode(data) if len(data) <= MAX_FILE_BYTES else None


def _ms(found: Mapping[str, object] | None, key: str) -> int:
    value = as_map((found or {}).get("time")).get(key)
    return value if type(value) is int and value >= 0 else 0
