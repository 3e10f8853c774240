"""OpenCode's part types as ``toolview doctor`` counts them: declared from the pinned
1.18.33 binary's part schemas, censused from the database read-only, all known in the real
CLI's database, and an undeclared one counted with where it was first seen."""

from __future__ import annotations

import re
import shutil
import sqlite3
from contextlib import closing
from functools import cache
from pathlib import Path

from scripted_agents.doctor_rows import NODE_MODULES, doctor_row, pinned_version
from toolview.hosts.opencode import KNOWN_RECORDS, VERIFIED

from .conftest import REAL

BINARY = NODE_MODULES / "opencode-linux-x64" / "bin" / "opencode"


@cache
def _part_types() -> frozenset[str]:
    """Each ``…Part`` schema's ``type`` literal in the binary (``StepFinishPart``:
    ``step-finish``): the last ``type:X.Literal("…")`` before its identifier."""
    binary = BINARY.read_bytes()
    found = set()
    for named in re.finditer(rb'identifier:"\w+Part"', binary):
        before = binary[max(0, named.start() - 1500) : named.start()]
        literals = re.findall(rb'type:\w+\.Literal\("([a-z-]+)"\)', before)
        found.add(literals[-1].decode())
    return frozenset(found)


def test_the_declared_types_are_the_pinned_opencodes() -> None:
    assert pinned_version("opencode-ai") == pinned_version("opencode-linux-x64") == VERIFIED
    declared = _part_types()
    assert declared >= KNOWN_RECORDS
    assert declared - KNOWN_RECORDS == {"subtask", "retry"}  # declared, not read yet


def _plant(db: Path, *rows: tuple[str, str]) -> str:
    """Parts ``(id, data)`` added to the database's first session; that session's id."""
    with closing(sqlite3.connect(db)) as con, con:
        session, message = con.execute("SELECT session_id, message_id FROM part").fetchone()
        for part_id, data in rows:
            con.execute(
                "INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)", (part_id, message, session, data)
            )
    return str(session)


def test_the_real_database_is_checked_against_1_18_33(tmp_path: Path) -> None:
    home = tmp_path / ".local" / "share" / "opencode"
    home.mkdir(parents=True)
    shutil.copy(REAL, home / "opencode.db")
    before = (home / "opencode.db").read_bytes()
    row = doctor_row("opencode", tmp_path)
    assert row["checked"] is True and row["checkedAgainst"] == "1.18.33"
    assert row["unmapped"] == {} and row["records"] == 32 and row["unreadableLines"] == 0
    assert (home / "opencode.db").read_bytes() == before  # read-only
    assert sorted(p.name for p in home.iterdir()) == ["opencode.db"]  # no journal of ours


def test_an_undeclared_type_is_counted_with_where_it_was_first_seen(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    shutil.copy(REAL, db)
    hologram = '{"type":"hologram"}'
    session = _plant(db, ("prt_zz2", hologram), ("prt_zz1", hologram), ("prt_zz3", "{not json"))
    row = doctor_row("opencode", tmp_path, "--opencode", str(tmp_path))
    assert row["unmapped"] == {
        "hologram": {"count": 2, "first": f"{db} session {session} part prt_zz1"}
    }
    assert row["records"] == 34 and row["unreadableLines"] == 1
