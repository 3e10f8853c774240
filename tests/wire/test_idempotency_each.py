"""Several keyed batches in one write (``append_each``): each stored once, all at once.

An OTLP export is many spans, each under its own key; they go in one
transaction. The log tests run on a real SQLite file and a real redis-server
(the ``open_log`` fixture); two clients on one store stand for two processes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from toolview_servers import run_async

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.wire.idempotency import Appended, KeyConflict, Keyed, Remembered, plan_keyed
from toolview.wire.log import ObservationLog
from toolview.wire.log.sqlite import SQLiteLog

LogOpener = Callable[[], ObservationLog]  # the open_log fixture's type


def span(n: int, text: str = "ok") -> Keyed:
    """A tool span as the OTLP route appends it: its call and result, under its own key."""
    call: list[Observation] = [
        ToolCall(f"c{n}", "shell", {"n": n}),
        ToolResult(f"c{n}", "shell", text, complete=True, is_error=False),
    ]
    return f"span-{n}", call


def texts(records: list[tuple[int, bytes]]) -> list[tuple[int, str, str]]:
    """Each record's seq, kind and call id (or text): what was stored, in order."""
    decoded = [(seq, msgspec.json.decode(body)) for seq, body in records]
    return [(seq, r["kind"], r.get("toolCallId", r.get("text"))) for seq, r in decoded]


def test_the_plan_stores_new_keys_and_replays_known_and_repeated_ones() -> None:
    known = {"span-1": Remembered(1, 2, plan_keyed([span(1)], {}, 0).remember[0][1].digest)}
    plan = plan_keyed([span(1), span(2), span(2), span(3, "other"), span(4)], known, 2)
    assert [o.seqs if isinstance(o, Appended) else o for o in plan.outcomes[:3]] == [
        [1, 2],
        [3, 4],
        [3, 4],
    ]
    assert [o.replayed for o in plan.outcomes if isinstance(o, Appended)] == [
        True,
        False,
        True,
        False,
        False,
    ]
    assert [key for key, _ in plan.remember] == ["span-2", "span-3", "span-4"]
    assert [(b.first, b.last) for _, b in plan.remember] == [(3, 4), (5, 6), (7, 8)]
    assert len(plan.observations) == 6


def test_a_retried_export_stores_nothing_again(open_log: LogOpener) -> None:
    run_async(lambda: _check_retry(open_log))


async def _check_retry(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    export = [span(n) for n in range(1, 6)]
    first = await log.append_each("t", export)
    assert [o.seqs for o in first if isinstance(o, Appended)] == [
        [2 * n - 1, 2 * n] for n in range(1, 6)
    ]
    assert not any(o.replayed for o in first if isinstance(o, Appended))
    again = await log.append_each("t", export)
    assert [(o.seqs, o.replayed) for o in again if isinstance(o, Appended)] == [
        (o.seqs, True) for o in first if isinstance(o, Appended)
    ]
    assert len(await log.read("t", 0)) == 10
    info = await log.thread("t")
    assert info is not None and info.last_seq == 10
    await log.aclose()
    reopened = open_log()  # the keys are durable with the records
    assert all(
        o.replayed for o in await reopened.append_each("t", export[2:3]) if isinstance(o, Appended)
    )
    await reopened.aclose()


def test_a_partly_new_export_stores_only_its_new_spans(open_log: LogOpener) -> None:
    run_async(lambda: _check_mixed(open_log))


async def _check_mixed(open_log: LogOpener) -> None:
    log = open_log()
    await log.create_thread("t")
    await log.append_each("t", [span(1), span(2)])
    mixed = [span(1), span(3), span(2, "changed"), span(4), span(3)]
    outcomes = await log.append_each("t", mixed)
    assert isinstance(outcomes[2], KeyConflict)  # the same span id with other content
    stored = [o for o in outcomes if isinstance(o, Appended)]
    assert [(o.seqs, o.replayed) for o in stored] == [
        ([1, 2], True),
        ([5, 6], False),
        ([7, 8], False),
        ([5, 6], True),  # a key twice in one export: stored once
    ]
    assert texts(await log.read("t", 0)) == [
        (seq, kind, f"c{n}")
        for seq, n, kind in [
            (1, 1, "tool-call"),
            (2, 1, "tool-result"),
            (3, 2, "tool-call"),
            (4, 2, "tool-result"),
            (5, 3, "tool-call"),
            (6, 3, "tool-result"),
            (7, 4, "tool-call"),
            (8, 4, "tool-result"),
        ]
    ]
    assert (await log.append_once("t", span(4)[1], "span-4")).seqs == [7, 8]  # one key set
    await log.aclose()


def test_two_clients_given_overlapping_exports_store_each_span_once(
    open_log: LogOpener,
) -> None:
    run_async(lambda: _check_two_clients(open_log))


async def _check_two_clients(open_log: LogOpener) -> None:
    first, second = open_log(), open_log()
    await first.create_thread("t")
    for n in range(0, 40, 4):
        a, b = await asyncio.gather(
            first.append_each("t", [span(n), span(n + 1), span(n + 2)]),
            second.append_each("t", [span(n + 2), span(n + 1), span(n + 3)]),
        )
        seqs = {o.seqs[0] for o in a + b if isinstance(o, Appended)}
        assert len(seqs) == 4  # four spans, each at one place, whoever stored it
    records = texts(await first.read("t", 0, limit=1000))
    calls = [name for _, kind, name in records if kind == "tool-call"]
    assert sorted(calls) == sorted(f"c{n}" for n in range(40)) and len(records) == 80
    await first.aclose()
    await second.aclose()


def test_a_write_failing_midway_stores_nothing_of_the_export(tmp_path: Path) -> None:
    """Atomic: the records, the open calls' state and every span's key, or none of them."""
    path = tmp_path / "log.db"
    run_async(lambda: _check_failing_write(path))


async def _check_failing_write(path: Path) -> None:
    log = SQLiteLog(path)
    await log.create_thread("t")
    await log.append("t", [Message("user", "before")])
    with sqlite3.connect(path) as db:  # the disk refuses the export's fifth record
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.seq = 6"
            " BEGIN SELECT RAISE(ABORT, 'no room'); END"
        )
    export = [span(n) for n in range(1, 5)]
    with pytest.raises(sqlite3.IntegrityError, match="no room"):
        await log.append_each("t", export)
    assert len(await log.read("t", 0)) == 1
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER refuse")
    retried = await log.append_each("t", export)  # no key was kept: every span is stored now
    assert [(o.seqs, o.replayed) for o in retried if isinstance(o, Appended)] == [
        ([2 * n, 2 * n + 1], False) for n in range(1, 5)
    ]
    await log.aclose()


def test_an_export_bigger_than_the_bound_keeps_its_last_keys(open_log: LogOpener) -> None:
    run_async(lambda: _check_bound(open_log))


async def _check_bound(open_log: LogOpener) -> None:
    log = open_log()
    log.keep_keys = 3  # type: ignore[attr-defined]  # both backends take it; 10,000 by default
    await log.create_thread("t")
    await log.append_each("t", [span(0)])
    await log.append_each("t", [span(n) for n in range(1, 6)])
    again = await log.append_each("t", [span(n) for n in range(6)])
    assert [o.replayed for o in again if isinstance(o, Appended)] == [False] * 3 + [True] * 3
    assert len(await log.read("t", 0)) == 18  # the forgotten three were stored again
    await log.aclose()
