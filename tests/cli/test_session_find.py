"""A file holding many sessions (OpenCode's database) is listed and opened one session at a
time: ``sessions`` gives a line per top-level session, ``show ses_…`` opens that one."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from toolview.contract import Message, ToolCall, decode_observation

REAL = Path(__file__).resolve().parents[1] / "hosts" / "opencode" / "real" / "opencode.db"
FIRST = "ses_dad2a37e6ffeUCN6jKQQLxo7xa"
SECOND = "ses_zz2second0000000000000000"
LATER_MS = 1796686999000


def _with_a_second_session(folder: Path) -> Path:
    """The real database with one more top-level session (a prompt and nothing else),
    changed after the first: the newest."""
    db = folder / "opencode.db"
    shutil.copy(REAL, db)
    with closing(sqlite3.connect(db)) as con, con:
        columns = [row[1] for row in con.execute("PRAGMA table_info(session)")]
        picked = ", ".join(
            {"id": "?", "title": "'Second run'", "time_created": "?", "time_updated": "?"}.get(
                name, name
            )
            for name in columns
        )
        con.execute(
            f"INSERT INTO session ({', '.join(columns)}) SELECT {picked} FROM session WHERE id = ?",
            (SECOND, LATER_MS, LATER_MS, FIRST),
        )
        message = json.dumps({"role": "user", "time": {"created": LATER_MS}})
        con.execute(
            "INSERT INTO message VALUES ('msg_second', ?, ?, ?, ?)",
            (SECOND, LATER_MS, LATER_MS, message),
        )
        part = json.dumps({"type": "text", "text": "the second prompt"})
        con.execute(
            "INSERT INTO part VALUES ('prt_second', 'msg_second', ?, ?, ?, ?)",
            (SECOND, LATER_MS, LATER_MS, part),
        )
    return db


def toolview(*args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, capture_output=True, timeout=120, check=False)


def test_sessions_lists_each_opencode_session_on_its_own_line(tmp_path: Path) -> None:
    db = _with_a_second_session(tmp_path)
    listed = toolview("sessions", "--json", "--no-cache", "--opencode", str(db.parent))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    assert [(r["agent"], r["id"]) for r in rows] == [("opencode", SECOND), ("opencode", FIRST)]
    assert [(r["calls"], r["subAgentCalls"], r["failures"]) for r in rows] == [
        (0, 0, 0),
        (7, 1, 1),
    ]
    assert rows[0]["firstPrompt"] == "Second run"  # the session's own title, before its prompt


def test_show_an_opencode_session_id_opens_that_session_alone(tmp_path: Path) -> None:
    db = _with_a_second_session(tmp_path)
    for word, calls, prompt in ((SECOND[:12], 0, "the second prompt"), (FIRST[:12], 8, None)):
        shown = toolview("show", "--json", "--opencode", str(db.parent), word)
        assert shown.returncode == 0, shown.stderr
        lines = [decode_observation(line) for line in shown.stdout.splitlines()]
        assert len([o for o in lines if isinstance(o, ToolCall)]) == calls
        said = [o.text for o in lines if isinstance(o, Message) and o.role == "user"]
        assert ("the second prompt" in said) == (prompt is not None)
