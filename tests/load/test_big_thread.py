"""A thread with many observations: replay reads by seq, never a full scan.

Every statement the SQLite log runs to replay from the end of a 100,000-
observation thread (CI; a million in the long variant) is captured as it
runs and checked with ``EXPLAIN QUERY PLAN``: each uses the primary key. The
replayed tail is checked for content; bench/replay.py prints the times.
"""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path

import pytest
from fault_tools import env_int
from toolview_servers import run_async

from toolview.contract import Message, ToolCall, ToolResult
from toolview.wire.log import Replay
from toolview.wire.log.sqlite import SQLiteLog

OBSERVATIONS = env_int("TOOLVIEW_BIG_THREAD", 100_000)


def stream(count: int) -> list[Message | ToolCall | ToolResult]:
    """Messages, with one call whose output grows through the last thousand."""
    items: list[Message | ToolCall | ToolResult] = [
        Message(role="user", text=f"m{n}") for n in range(count - 1000)
    ]
    items.append(ToolCall("c1", "shell", {}))
    text = ""
    for n in range(998):  # stored as appends: a replay mid-call rebuilds from the anchor
        text += f"{n}\n"
        items.append(ToolResult("c1", "shell", text, False, False))
    items.append(ToolResult("c1", "shell", "done\n", True, False))
    return items


def _selects(statements: list[str], sql: str) -> None:
    """Keep a traced statement if it reads (the appends' inserts would only cost memory)."""
    if sql.lstrip().upper().startswith("SELECT"):
        statements.append(sql)


def plans(db: sqlite3.Connection, statements: list[str]) -> list[str]:
    """The query plan of every captured SELECT, one string each."""
    return [
        " | ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql))
        for sql in statements
        if sql.lstrip().upper().startswith("SELECT")
    ]


def replay_from_the_end(tmp_path: Path, count: int) -> None:
    path = tmp_path / "log.db"

    async def fill_and_replay() -> tuple[list[str], list[int], str, str]:
        log = SQLiteLog(path)
        log._db.execute("PRAGMA synchronous=OFF")  # set-up speed only; replay is the subject
        statements: list[str] = []
        connections = (log._db, log._reader, log._indexing)  # writes, reads, the index's catch-up
        for connection in connections:  # set while no worker uses them: see below
            connection.set_trace_callback(functools.partial(_selects, statements))
        await log.create_thread("big")
        items = stream(count)
        for first in range(0, count, 5000):
            await log.append("big", items[first : first + 5000])
        replay = Replay(log, "big", count - 500)  # mid-call: rebuilt from the call's anchor
        await replay.running_at_start()
        tail = await replay.next_batch(1000)
        await log._indexer.settle()  # the appends' catch-up, by each thread's key
        # Only now, with no worker left on a connection, are the callbacks removed:
        # set_trace_callback holds the GIL while it waits for the connection's mutex,
        # which a worker mid-statement holds while its callback waits for the GIL —
        # removed while the index caught up, the test hung CI for an hour.
        for connection in connections:
            connection.set_trace_callback(None)
        await log.aclose()
        partial = tail[0].observation
        last = tail[-1].observation
        assert isinstance(partial, ToolResult) and isinstance(last, ToolResult)
        return statements, [item.seq for item in tail], partial.text, last.text

    statements, seqs, first_text, last_text = run_async(fill_and_replay)
    assert seqs == list(range(count - 499, count + 1))
    assert first_text == "".join(f"{n}\n" for n in range(500))  # rebuilt exactly
    assert last_text == "done\n"
    with sqlite3.connect(path) as db:
        found = plans(db, statements)
    assert found, "no statement captured"
    for plan in found:
        assert "USING PRIMARY KEY" in plan or "USING INDEX" in plan, plan
        assert "SCAN" not in plan, plan


def test_replay_from_the_end_reads_by_seq(tmp_path: Path) -> None:
    replay_from_the_end(tmp_path, OBSERVATIONS)


@pytest.mark.slow
def test_replay_from_the_end_of_a_million(tmp_path: Path) -> None:
    replay_from_the_end(tmp_path, max(OBSERVATIONS, 1_000_000))
