"""``Directory``: the index's cards, kept as threads grow, and its listing made only on a change."""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
from hypothesis import given, settings
from hypothesis import strategies as st
from thread_strategies import threads

from toolview.contract import Observation, RunStarted, ToolCall, ToolResult
from toolview.server.page.index.directory import Card, Directory
from toolview.wire.log.sqlite import SQLiteLog

NOW = 1_800_000_000.0  # one moment for every status compared (2027-01-15)
AT = "2026-01-0{}T10:00:00.000Z"


def with_log(scenario: Callable[[SQLiteLog], Awaitable[None]]) -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as folder:
            log = SQLiteLog(Path(folder) / "log.db")
            try:
                await scenario(log)
            finally:
                await log.aclose()

    asyncio.run(run())


def test_a_listing_is_made_again_only_when_a_card_changed() -> None:
    """The same list while nothing changed (a page request then costs no rebuild); a new
    record, a new thread make a new one that says them."""

    async def scenario(log: SQLiteLog) -> None:
        directory = Directory(log, anyio.CapacityLimiter(1))
        await log.create_thread("a")
        await log.append("a", [RunStarted("r", at=AT.format(1)), ToolCall("c", "shell", {})])
        first = await directory.listing()
        assert await directory.listing() is first
        assert first[0]["running"] == 1
        await log.append(
            "a", [ToolResult("c", "shell", "ok", complete=True, is_error=False, at=AT.format(2))]
        )
        second = await directory.listing()
        assert second is not first and second[0]["running"] == 0
        assert second[0]["lastActivity"] == AT.format(2)
        await log.create_thread("b")
        assert [t["id"] for t in await directory.listing()] == ["b", "a"]  # b: created now

    with_log(scenario)


def fold_all(card: Card, records: list[tuple[int, bytes]]) -> dict[str, object]:
    card.fold(records)
    return card.as_json(NOW)


@settings(max_examples=40, deadline=None)
@given(
    observations=threads(asks=True),
    cuts=st.lists(st.integers(0, 40), max_size=4),
)
def test_a_card_folded_as_the_thread_grows_equals_one_folded_at_once(
    observations: list[Observation], cuts: list[int]
) -> None:
    """Refactor guard of the incremental card: read in any pieces (a listing between appends),
    a card says what a card made from the whole thread says — every field, status included."""

    async def scenario(log: SQLiteLog) -> None:
        thread = f"claude-{uuid.uuid4()}"
        await log.create_thread(thread)
        await log.append(thread, observations)
        records = await log.read(thread, 0, limit=1000)
        info = await log.thread(thread)
        assert info is not None
        grown, whole = Card(thread, info.created), Card(thread, info.created)
        start = 0
        for cut in sorted({c for c in cuts if c < len(records)}):
            grown.fold(records[start:cut])
            start = cut
        grown.fold(records[start:])
        grown.grew = whole.grew = info.created  # when each read it: not a fact of the thread
        assert grown.as_json(NOW) == fold_all(whole, records)

    with_log(scenario)
