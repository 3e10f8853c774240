"""``LiveDatabase``: an OpenCode database OpenCode rewrites in place, read again and again —
each call, result and text handed on once, when it has settled, a new session as it comes."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from toolview.contract import Message, RunStarted, ToolCall, ToolResult
from toolview.hosts.opencode import load_observations
from toolview.hosts.opencode.live import LiveDatabase

from .conftest import REAL


def _empty(folder: Path) -> Path:
    """The real database's tables, no rows (OpenCode's own schema)."""
    db = folder / "opencode.db"
    with closing(sqlite3.connect(REAL)) as real, closing(sqlite3.connect(db)) as new, new:
        for (sql,) in real.execute("SELECT sql FROM sqlite_master WHERE type='table'"):
            new.execute(sql)
    return db


def _write(db: Path, sql: str, *values: object) -> None:
    with closing(sqlite3.connect(db)) as con, con:
        con.execute(sql, values)


def _session(db: Path, sid: str, at: int) -> None:
    _write(db, "INSERT INTO session (id, project_id, slug, directory, title, version,"
               " time_created, time_updated) VALUES (?, 'p', 's', '/w', 't', '1', ?, ?)",
           sid, at, at)  # fmt: skip


def _message(db: Path, sid: str, mid: str, role: str, at: int) -> None:
    data = json.dumps({"role": role, "time": {"created": at}})
    _write(db, "INSERT INTO message VALUES (?, ?, ?, ?, ?)", mid, sid, at, at, data)


def _part(db: Path, sid: str, mid: str, pid: str, part: dict[str, object]) -> None:
    _write(db, "INSERT OR REPLACE INTO part VALUES (?, ?, ?, 1, 1, ?)", pid, mid, sid,
           json.dumps(part))  # fmt: skip


def _tool(status: str) -> dict[str, object]:
    state: dict[str, object] = {"status": status, "input": {"command": "ls"}}
    if status == "completed":
        state |= {"output": "a.txt", "metadata": {"exit": 0}}
    return {"type": "tool", "tool": "bash", "callID": "c1", "state": state}


def test_each_part_is_handed_on_once_when_settled(tmp_path: Path) -> None:
    db = _empty(tmp_path)
    live = LiveDatabase(db)
    assert live.read() == []
    _session(db, "ses_a", 1)
    _message(db, "ses_a", "msg_1", "user", 1)
    _part(db, "ses_a", "msg_1", "prt_1", {"type": "text", "text": "go"})
    _message(db, "ses_a", "msg_2", "assistant", 2)
    _part(db, "ses_a", "msg_2", "prt_2", _tool("running"))
    first = live.read()
    assert [type(o) for o in first] == [RunStarted, Message, ToolCall]
    assert live.read() == []  # nothing changed: nothing again
    _part(db, "ses_a", "msg_2", "prt_2", _tool("completed"))
    _part(db, "ses_a", "msg_2", "prt_3", {"type": "text", "text": "half", "time": {"start": 3}})
    settled = live.read()
    assert [type(o) for o in settled] == [ToolResult]  # the streaming text waits
    assert isinstance(settled[0], ToolResult) and settled[0].tool_call_id == "c1"
    _part(db, "ses_a", "msg_2", "prt_3",
          {"type": "text", "text": "half done", "time": {"start": 3, "end": 4}})  # fmt: skip
    said = live.read()
    assert [o.text for o in said if isinstance(o, Message)] == ["half done"]
    assert live.read() == []


def test_a_new_session_appears_and_a_single_session_is_followed_alone(tmp_path: Path) -> None:
    db = _empty(tmp_path)
    every, one = LiveDatabase(db), LiveDatabase(db, "ses_b")
    for sid, at in (("ses_a", 1), ("ses_b", 2)):
        _session(db, sid, at)
        _message(db, sid, f"msg_{sid}", "user", at)
        _part(db, sid, f"msg_{sid}", f"prt_{sid}", {"type": "text", "text": f"hi {sid}"})
    assert [o.text for o in every.read() if isinstance(o, Message)] == ["hi ses_a", "hi ses_b"]
    assert [o.text for o in one.read() if isinstance(o, Message)] == ["hi ses_b"]


def test_the_real_database_followed_has_the_calls_of_a_whole_read(real_db: Path) -> None:
    own = [o for o in load_observations(real_db) if isinstance(o, ToolCall | ToolResult)]
    own = [o for o in own if not isinstance(o.parent_call_id, str)]  # live: the session's own
    followed = [o for o in LiveDatabase(real_db).read() if isinstance(o, ToolCall | ToolResult)]
    assert [(type(o), o.tool_call_id) for o in followed] == [(type(o), o.tool_call_id) for o in own]
    assert len(followed) == 14
