"""The OpenCode loader on the database the real CLI wrote (real/): sessions streamed with
their sub-agents nested, read read-only while a writer holds the WAL, never a crash."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from toolview.contract import Message, ToolCall, ToolResult
from toolview.hosts.opencode import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote


def test_the_committed_database_maps_every_call_with_the_sub_agent_nested(real_db: Path) -> None:
    stream = list(load_observations(real_db))
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    calls = [o for o in stream if isinstance(o, ToolCall)]
    assert [c.tool_call_id for c in calls] == ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "s1"]
    (sub,) = [c for c in calls if c.tool_call_id == "s1"]
    assert sub.parent_call_id == "c7"
    results = {o.tool_call_id: o for o in stream if isinstance(o, ToolResult)}
    assert set(results) == {c.tool_call_id for c in calls}
    assert [k for k, r in results.items() if r.is_error] == ["c2"]  # exit 3, "completed"


def test_sniff_and_session_files(real_db: Path, tmp_path: Path) -> None:
    assert sniff(real_db.read_bytes()[:100])
    assert not sniff(b'{"sessionId": "x"}')
    assert session_files(tmp_path) == [real_db] == session_files(real_db)
    assert session_files(tmp_path / "nowhere") == []


def test_a_writer_s_wal_is_read_and_neither_file_is_written(real_db: Path) -> None:
    """OpenCode writes in WAL mode: what it committed is seen before any checkpoint, and a
    read-only reader changes neither the database nor the WAL (no checkpoint of ours)."""
    with closing(sqlite3.connect(real_db)) as writer:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        message, session = writer.execute(
            "SELECT id, session_id FROM message ORDER BY time_created DESC LIMIT 1"
        ).fetchone()
        part = {"type": "text", "text": "written after, still in the WAL"}
        writer.execute(
            "INSERT INTO part VALUES ('prt_zz_late', ?, ?, 1, 1, ?)",
            (message, session, json.dumps(part)),
        )
        writer.commit()
        wal = real_db.with_name("opencode.db-wal")
        before = (real_db.read_bytes(), wal.read_bytes())
        assert len(before[1]) > 0
        texts = [o.text for o in load_observations(real_db) if isinstance(o, Message)]
        assert "written after, still in the WAL" in texts
        assert (real_db.read_bytes(), wal.read_bytes()) == before


def test_a_file_that_is_no_opencode_database_is_a_note(tmp_path: Path) -> None:
    broken = tmp_path / "opencode.db"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    (note,) = list(load_observations(broken))
    assert isinstance(note, SessionNote) and "cannot be read as OpenCode's database" in note.text
