"""The thread search and the FTS index see the same text of every call (one maker).

A property over random threads: what ``server.page.search.thread_text`` gives the thread
search, field by field, is what the SQLite log's index holds — arguments,
final outputs, refusals, an aborted call's output, messages; secrets
redacted; each field cut at ``SEARCH_CHARS`` alike.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.server.page.projection import Projection
from toolview.server.page.search.thread_text import TextCache, item_text, snapshot
from toolview.wire.log import Replay
from toolview.wire.log.searchable import SEARCH_CHARS
from toolview.wire.log.sqlite import SQLiteLog

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
Seen = list[tuple[str | None, str, str]]

texts = st.one_of(
    st.text(max_size=30),
    st.builds(lambda word: "y" * (SEARCH_CHARS - 3) + " \x1b[1m" + word, st.text(max_size=8)),
    st.builds(lambda word: f"token {GITHUB} {word}\n", st.text(max_size=8)),
)


@st.composite
def threads(draw: st.DrawFn) -> list[Observation]:
    """One run: calls ending done, failed, refused, aborted mid-output or silent; messages."""
    made: list[Observation] = [RunStarted("r")]
    for n in range(draw(st.integers(0, 5))):
        made.append(Message("assistant", draw(texts)))
        call, end = f"c{n}", draw(st.sampled_from(["done", "refused", "aborted", "none"]))
        made.append(ToolCall(call, "shell", {"command": draw(texts)}))
        if end == "done":
            made.append(ToolResult(call, "shell", draw(texts), complete=True, is_error=False))
        elif end == "refused":
            made.append(ToolRefused(call, "shell", draw(texts)))
        elif end == "aborted":
            made.append(ToolResult(call, "shell", draw(texts), complete=False, is_error=False))
    return [*made, RunEnded("r", "aborted")]


async def both(path: Path, observations: list[Observation]) -> tuple[Seen, Seen]:
    """What the thread search sees, and what the index holds, of one thread."""
    log = SQLiteLog(path)
    try:
        await log.create_thread("t")
        await log.append("t", observations)
        await log.search("anything", 1, 60.0)  # waits for the index to catch up
        projection = Projection(Thread.from_observations(observations), Replay(log, "t", 0), None)
        cache = TextCache(1 << 30)
        items = snapshot(projection)
        searched = [(i.call_id, i.field, item_text(i, cache)) for i in items]
    finally:
        await log.aclose()
    with sqlite3.connect(path) as db:
        indexed = db.execute("SELECT call, field, text FROM search WHERE thread = 't'").fetchall()
    return sorted((t for t in searched if t[2]), key=str), sorted(indexed, key=str)


@settings(max_examples=40)
@given(threads())
def test_the_thread_search_and_the_index_see_the_same_text(
    observations: list[Observation],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        searched, indexed = asyncio.run(both(Path(tmp) / "log.db", observations))
    assert searched == indexed
    assert all(len(text) <= SEARCH_CHARS for _, _, text in indexed)
    assert GITHUB[4:] not in str(indexed)
