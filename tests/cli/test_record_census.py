"""``cli.record_census`` on OpenCode's database, attacked: a file that is no database, hostile
type names, and more distinct types than the census keeps. The databases are real SQLite
files with OpenCode's ``part`` table (tests/hosts/opencode/real has the real CLI's)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from toolview.cli.record_census import MAX_TYPES, census
from toolview.cli.session_hosts import host
from toolview.hosts.readers import Reader


def _opencode() -> Reader:
    found = host("opencode")
    assert found is not None
    return found


def _database(path: Path, kinds: list[object]) -> Path:
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text,"
            " time_created integer, time_updated integer, data text)"
        )
        db.executemany(
            "INSERT INTO part VALUES (?, 'm', 'ses_1', 0, 0, ?)",
            [(f"prt_{n:05}", json.dumps({"type": kind})) for n, kind in enumerate(kinds)],
        )
    return path


def test_a_file_that_is_no_database_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    garbage = tmp_path / "opencode.db"
    garbage.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    found = census(_opencode(), [garbage, tmp_path / "gone.db"])
    assert found.checked and found.unreadable == 2 and found.records == 0


def test_hostile_part_types_are_cleaned_cut_and_capped(tmp_path: Path) -> None:
    kinds: list[object] = ["\x1b[31mred", "x" * 5000, 7, "tool"]
    kinds += [f"t{n}" for n in range(MAX_TYPES + 5)]
    found = census(_opencode(), [_database(tmp_path / "opencode.db", kinds)])
    assert found.records == len(kinds)
    assert all("\x1b" not in name and len(name) < 120 for name in found.unmapped)
    assert "red" in found.unmapped  # the escape sequence cleaned off; 7 is no type at all
    assert len(found.unmapped) == MAX_TYPES and found.more == 7  # 1007 unknown names
    first = found.unmapped[next(iter(found.unmapped))].first
    assert first == f"{tmp_path / 'opencode.db'} session ses_1 part prt_00000"
