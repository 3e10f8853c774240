"""``DatabaseWatcher``: OpenCode's sessions into the log with their read positions — a
server restarted on the same log draws nothing twice and misses nothing written since."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from toolview.contract import ToolCall, decode_observation
from toolview.server.ingest.watch.database import DatabaseWatcher, thread_of
from toolview.wire.log.sqlite import SQLiteLog

REAL = Path(__file__).resolve().parents[1] / "hosts" / "opencode" / "real" / "opencode.db"
SESSION = "ses_dad2a37e6ffeUCN6jKQQLxo7xa"


def _add_call(db: Path) -> None:
    """One more settled call in the session, written as OpenCode writes one."""
    state = {"status": "completed", "input": {"command": "true"}, "output": "",
             "metadata": {"exit": 0}}  # fmt: skip
    part = json.dumps({"type": "tool", "tool": "bash", "callID": "late", "state": state})
    with closing(sqlite3.connect(db)) as con, con:
        (message,) = con.execute("SELECT id FROM message WHERE session_id = ? ORDER BY id DESC",
                                 (SESSION,)).fetchone()  # fmt: skip
        con.execute("INSERT INTO part VALUES ('prt_zzzz', ?, ?, 1, 1, ?)", (message, SESSION, part))


async def _calls(log: SQLiteLog) -> list[str]:
    records = await log.read(thread_of(SESSION), 0, limit=10_000)
    found = [decode_observation(body) for _, body in records]
    return [o.tool_call_id for o in found if isinstance(o, ToolCall)]


def test_a_restart_draws_nothing_twice_and_reads_what_came_since(tmp_path: Path) -> None:
    folder = tmp_path / "opencode"
    folder.mkdir()
    shutil.copy(REAL, folder / "opencode.db")

    async def scenario() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        try:
            await DatabaseWatcher(log, folder).read()
            first = await _calls(log)
            assert first == ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]
            stored = len(await log.read(thread_of(SESSION), 0, limit=10_000))
            await DatabaseWatcher(log, folder).read()  # a restart: the same log, a new reader
            assert len(await log.read(thread_of(SESSION), 0, limit=10_000)) == stored
            _add_call(folder / "opencode.db")
            await DatabaseWatcher(log, folder).read()
            assert await _calls(log) == [*first, "late"]
        finally:
            await log.aclose()

    asyncio.run(scenario())
