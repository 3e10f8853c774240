"""Which record types an agent's sessions hold that its reader does not know.

Why raw lines, not the mapped thread: a type the reader does not know makes
no observation at all, so only the agent's own records can show it (for a
database, OpenCode's, the rows the reader's ``records`` gives). Each
line is decoded and named by the reader's ``record_type``; a name outside
the reader's ``maps`` is counted, with the first place it was seen, so a
bug report can say "Codex 0.172 writes ``event_msg:foo`` (17 times; first at
rollout-….jsonl line 42)". Names come from the user's files: they are
cleaned and cut like any field toolview prints, and at most ``MAX_TYPES``
different ones are kept (a hostile file cannot grow the census).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from toolview.hosts.readers import Reader
from toolview.hosts.sessions import SessionLineError, decode_record, file_lines
from toolview.render.clean import clean_field

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["MAX_TYPES", "Census", "Unmapped", "census"]

MAX_TYPES: Final = 1000
_NAME_CHARS: Final = 80


@dataclass
class Unmapped:
    """One record type the reader does not know: how often, and where first."""

    count: int
    first: str
    """``path line N``: where it was first seen."""


@dataclass
class Census:
    """One reader's sessions, read line by line."""

    reader: Reader
    sessions: int = 0
    records: int = 0
    unreadable: int = 0
    unmapped: dict[str, Unmapped] = field(default_factory=dict)
    more: int = 0
    """Records of types beyond the first ``MAX_TYPES`` unknown ones (not named)."""

    @property
    def checked(self) -> bool:
        """Whether the reader declares its record types (a plug-in may not)."""
        return self.reader.record_type is not None and bool(self.reader.maps)


def census(reader: Reader, paths: list[Path]) -> Census:
    """Every record of the sessions at ``paths`` named and checked against ``reader.maps``."""
    found = Census(reader, sessions=len(paths))
    if not found.checked:
        return found
    for path in paths:
        try:
            for record, where in _records(reader, path):
                _count(found, record, where)
        except (OSError, sqlite3.Error):  # a database being replaced, or no database at all
            found.unreadable += 1
    return found


def _records(reader: Reader, path: Path) -> Iterator[tuple[Mapping[str, object] | None, str]]:
    """A session file's records and where each is: the reader's own ``records`` (a
    database's rows), else the file's lines decoded (None: a line that is no record)."""
    if reader.records is not None:
        yield from reader.records(path)
        return
    for number, line in file_lines(path):
        try:
            record: Mapping[str, object] | None = decode_record(line)
        except SessionLineError:
            record = None
        yield record, f"{path} line {number}"


def _count(found: Census, record: Mapping[str, object] | None, where: str) -> None:
    try:
        if record is None:
            raise SessionLineError("not a record")
        name = found.reader.record_type(record) if found.reader.record_type else None
    except Exception:  # not a record, or a reader's namer failing: noted
        found.unreadable += 1
        return
    found.records += 1
    if name is None or name in found.reader.maps:
        return
    shown = clean_field(name, _NAME_CHARS)
    seen = found.unmapped.get(shown)
    if seen is not None:
        seen.count += 1
    elif len(found.unmapped) < MAX_TYPES:
        found.unmapped[shown] = Unmapped(1, where)
    else:
        found.more += 1
