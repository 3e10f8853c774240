"""No request may block the server, log by log: Redis encoding, SQLite readers, projections.

The same ratio measure as tests/security/test_big_requests.py (a small
request's slowest time while a big one runs, against the big one's own time):
the CPU-heavy part of appending a big batch to Redis, a SQLite reader while a
big batch is written, and the first read of a thread whose records rebuild big
partial texts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from log_fixtures import redis_server
from server_threads import ThreadedServer
from test_big_requests import not_blocked_in_one_of, small_while_big
from toolview_servers import NDJSON, RedisServer, run_async

from toolview.contract import Message, ToolCall, ToolResult, encode_observation
from toolview.wire.batch_limit import MAX_BATCH
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog

__all__ = ["redis_server"]

_prefixes = itertools.count()


def big_batch(text: int) -> bytes:
    """10,000 messages (the most one batch may hold) of ``text`` characters each."""
    line = encode_observation(Message(role="user", text="y" * text))
    return b"\n".join([line] * MAX_BATCH)


@pytest.fixture
def redis_served(redis_server: RedisServer) -> Iterator[ThreadedServer]:
    prefix = f"bigredis{next(_prefixes)}"
    with ThreadedServer(lambda: RedisLog(redis_server.url, prefix=prefix)) as started:
        yield started


def test_a_big_post_to_redis_does_not_block_a_small_request(redis_served: ThreadedServer) -> None:
    """Encoding 10,000 observations and their ``XADD``s for Redis ran on the event loop."""
    httpx.post(f"{redis_served.url}/api/threads", json={"id": "t"}).raise_for_status()
    body = big_batch(16)  # Redis' own time per entry shows most in a short one

    def big() -> None:
        url = f"{redis_served.url}/api/threads/t/observations"
        posted = httpx.post(url, content=body, headers=NDJSON, timeout=300)
        assert posted.status_code == 200, posted.text

    not_blocked_in_one_of(3, lambda: small_while_big(redis_served.url, big))


@pytest.fixture
def sqlite_served(tmp_path: Path) -> Iterator[ThreadedServer]:
    with ThreadedServer(lambda: SQLiteLog(tmp_path / "log.db")) as started:
        yield started


def test_a_big_sqlite_append_does_not_block_listing_threads(sqlite_served: ThreadedServer) -> None:
    """The small request reads the log (``GET /api/threads``) while a big batch is written."""
    httpx.post(f"{sqlite_served.url}/api/threads", json={"id": "t"}).raise_for_status()
    body = big_batch(1600)  # 16 MB

    def big() -> None:
        url = f"{sqlite_served.url}/api/threads/t/observations"
        posted = httpx.post(url, content=body, headers=NDJSON, timeout=300)
        assert posted.status_code == 200, posted.text

    not_blocked_in_one_of(3, lambda: small_while_big(sqlite_served.url, big, "/api/threads"))


def test_catching_up_a_thread_of_big_partials_does_not_block_a_small_request(
    tmp_path: Path, sqlite_served: ThreadedServer
) -> None:
    """The first page request of a thread folds every record: 300 partials up to 6 MB each."""
    growth = "z" * 20 * 1024
    partials = [
        ToolResult("c", "shell", growth * n, complete=False, is_error=False) for n in range(1, 301)
    ]

    async def fill() -> None:
        log = SQLiteLog(tmp_path / "log.db")
        await log.create_thread("t")
        await log.append("t", [ToolCall("c", "shell", {"command": "yes"})])
        for start in range(0, len(partials), 20):
            await log.append("t", partials[start : start + 20])
        await log.aclose()

    run_async(fill)

    def summary() -> None:
        answer = httpx.get(f"{sqlite_served.url}/threads/t/summary", timeout=300)
        assert answer.status_code == 200

    not_blocked_in_one_of(3, lambda: small_while_big(sqlite_served.url, summary))
