"""The OpenCode part types this reader knows, and the database's parts as ``doctor`` reads them.

Why parts: OpenCode 1.18.33 keeps a session as ``message`` rows each with
``part`` rows, and a part's ``data.type`` says what it is (the 12 ``…Part``
schemas in its binary). The mapper draws ``MAPPED`` and passes over
``SKIPPED`` on purpose; ``subtask`` and ``retry`` are declared by OpenCode but
not read yet, so ``doctor`` counts them. ``part_records`` reads every part of
the database in one read-only transaction (``database.connect``: never a
write, never a checkpoint while OpenCode writes).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import closing
from typing import TYPE_CHECKING, Final

from toolview.hosts.opencode import legacy
from toolview.hosts.opencode.database import connect, decode

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["KNOWN_RECORDS", "MAPPED", "SKIPPED", "VERIFIED", "part_records", "record_type"]

VERIFIED: Final = "1.18.33"
MAPPED: Final = frozenset({"text", "reasoning", "tool", "step-finish"})
SKIPPED: Final = frozenset({"step-start", "snapshot", "patch", "agent", "compaction", "file"})
"""Parts that carry nothing a thread draws: a turn's start, file snapshots, patches' hashes."""
KNOWN_RECORDS: Final = MAPPED | SKIPPED
_PARTS: Final = "SELECT session_id, id, data FROM part ORDER BY session_id, id"


def record_type(record: Mapping[str, object]) -> str | None:
    """A part's ``type`` (``step-finish``), or None when it has none."""
    kind = record.get("type")
    return kind if isinstance(kind, str) else None


def part_records(path: Path) -> Iterator[tuple[Mapping[str, object] | None, str]]:
    """Every part of the database at ``path`` (None: its JSON does not decode) and where
    it is (``opencode.db session S part P``); a legacy session file's parts, each its file."""
    if legacy.is_session_file(path):
        row = legacy.session_row(path)
        storage = legacy.storage_of(path)
        for part in legacy.parts(storage, row.id) if row is not None else ():
            yield part.part, f"{storage}/part/{part.message_id}/{part.id}.json"
        return
    with closing(connect(path)) as db:
        for session_id, part_id, data in db.execute(_PARTS):
            yield decode(data), f"{path} session {session_id} part {part_id}"
