"""``Directory``: the index's cards, kept as threads grow, and its listing made only on a change."""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_fixtures import LogOpener
from test_thread_search import GITHUB
from thread_strategies import threads

from toolview.contract import Message, Observation, RunStarted, ToolCall, ToolResult
from toolview.server.page.index.card import Card
from toolview.server.page.index.card_shelf import CardShelf, stamp
from toolview.server.page.index.directory import Directory
from toolview.wire.log.redis import RedisLog
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
    """A card read in any pieces (a listing between appends), or kept in the log and taken
    back by a restarted server, says what a card made from the whole thread says — every
    field, status included."""

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
        shelf = CardShelf(log)
        await shelf.keep([whole])
        (kept,) = [k for k in await CardShelf(log).restore() if k.id == thread]
        back = Card(kept.id, kept.created, kept.seq, kept.facts, kept.created, counted=kept.counts)
        assert back.as_json(NOW) == whole.as_json(NOW)  # taken back after a restart: the same
        assert back.counts() == whole.counts()  # what /stats sums

    with_log(scenario)


async def listed(log: SQLiteLog | RedisLog, *, keeps: bool = True) -> list[dict[str, object]]:
    """A fresh server's first listing (``keeps``: of a log whose cards it keeps)."""
    directory = Directory(log, anyio.CapacityLimiter(1), CardShelf(log if keeps else None))
    return [{**t, "status": None} for t in await directory.listing()]  # status: as of now


async def two_threads(log: SQLiteLog | RedisLog) -> None:
    for thread in ("claude-a", "codex-b"):
        await log.create_thread(thread)
        await log.append(
            thread,
            [
                RunStarted("r", cwd="/home/ann/shop", at=AT.format(1)),
                Message("user", f"fix {thread}", at=AT.format(1)),
                ToolCall("c", "shell", {}, at=AT.format(2)),
            ],
        )


def test_a_restarted_server_lists_the_kept_cards_as_a_full_read_would() -> None:
    """The first listing keeps every card; the next server takes them back without reading a
    record (a thread whose records are gone still lists from its card), and one that grew
    since is read again from its start."""

    async def scenario(log: SQLiteLog) -> None:
        await two_threads(log)
        full = await listed(log)
        assert len(await log.kept_cards()) == 2
        assert await listed(log) == full
        await log.append("claude-a", [ToolResult("c", "shell", "no", complete=True, is_error=True)])
        again = await listed(log)
        assert again == await listed(log, keeps=False) != full
        assert next(t for t in again if t["id"] == "claude-a")["failed"] == 1
        await log._run(lambda: log._db.execute("DELETE FROM records"))
        assert await listed(log) == again  # the cards, not the (now missing) records

    with_log(scenario)


def card(facts: str = "{}", counts: str = "{}", rest: str = "", mark: str = "") -> bytes:
    """A card row's JSON, of these rules (``mark``: another stamp)."""
    made = mark or stamp()
    return f'{{"stamp": "{made}", "facts": {facts}, "counts": {counts}{rest}}}'.encode()


HOSTILE: dict[str, tuple[float | str | None, int, object]] = {  # created (None: the thread's)
    "not json": (None, 3, b"not json"),
    "another stamp": (None, 3, card(counts='{"calls": 5}', mark="0000000000000000")),
    "another shape": (None, 3, card(facts='{"title": 7}')),
    "too big": (None, 3, card(counts='{"calls": 5}', rest=f', "x": "{"y" * 300_000}"')),
    "a number, not bytes": (None, 3, 10**12),  # never bytes(10**12)
    "a word, not a time": ("when", 3, card()),
    "ahead of its thread": (None, 99, card(counts='{"calls": 5}')),
    "another thread's": (1.0, 3, card(counts='{"calls": 5}')),
}


@pytest.mark.parametrize("row", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_card_not_of_these_rules_or_shape_or_thread_is_left(
    row: tuple[float | str | None, int, object],
) -> None:
    """A row of another stamp, shape, type or size, ahead of its thread or of another thread
    by that name (another creation) is not taken: the thread is read, as a full read says."""

    async def scenario(log: SQLiteLog) -> None:
        await two_threads(log)
        full = await listed(log, keeps=False)
        created, seq, body = row
        (info,) = [i for i in await log.threads() if i.id == "claude-a"]
        values = ("claude-a", info.created if created is None else created, seq, body)
        sql = "INSERT OR REPLACE INTO index_cards VALUES (?, ?, ?, ?)"
        await log._run(lambda: log._db.execute(sql, values))
        assert await listed(log) == full

    with_log(scenario)


def test_both_logs_keep_the_cards_for_a_restarted_server(open_log: LogOpener) -> None:
    """SQLite (a table) and Redis (a hash): a second server takes every card back and lists
    what a full read lists; a value of another shape in the Redis hash is left."""

    async def scenario() -> None:
        log = open_log()
        try:
            assert isinstance(log, SQLiteLog | RedisLog)
            await two_threads(log)
            full = await listed(log, keeps=False)
            assert await listed(log) == full
            assert sorted(k[0] for k in await log.kept_cards()) == ["claude-a", "codex-b"]
            if isinstance(log, RedisLog):
                await log._redis.hset(f"{log.prefix}:index-cards", "codex-b", b'[1, "x"]')
            assert await listed(log) == full
        finally:
            await log.aclose()

    asyncio.run(scenario())


def test_a_kept_cards_words_are_cleaned_and_redacted_again_on_read() -> None:
    """A title, project, machine or user planted in the table (no record says them) is shown
    as the fold would show it: no terminal sequence, no credential."""

    async def scenario(log: SQLiteLog) -> None:
        await two_threads(log)
        await listed(log)
        planted = f"\x1b]8;;https://evil\x07shop {GITHUB}"
        word = msgspec.json.encode(planted).decode()
        fields = ("title", "project", "machine", "user")
        body = card(facts="{" + ", ".join(f'"{name}": {word}' for name in fields) + "}")
        sql = "UPDATE index_cards SET card = ? WHERE thread = 'claude-a'"
        await log._run(lambda: log._db.execute(sql, (body,)))
        shown = next(t for t in await listed(log) if t["id"] == "claude-a")
        for word in (shown["title"], shown["project"], shown["machine"], shown["user"]):
            assert "\x1b" not in str(word) and "\x07" not in str(word)
            assert GITHUB[4:] not in str(word)

    with_log(scenario)
