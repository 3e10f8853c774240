"""A thousand threads on one server, both log backends (uvicorn on a real socket).

Every thread keeps its own observations (nothing crosses between ids), the
listing holds them all, a hundred threads followed at once all get their new
observations, and once the followers leave no per-thread watcher is left
running (a watcher per thread ever followed would poll forever).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fault_tools import ResumingFollower, env_int, stop_all
from server_threads import ThreadedServer
from toolview_servers import NDJSON, RedisServer

from toolview.contract import decode_observation
from toolview.wire.log import ObservationLog
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog

LogOpener = Callable[[], ObservationLog]
THREADS = env_int("TOOLVIEW_THREADS", 1000)
FOLLOWED = env_int("TOOLVIEW_FOLLOWED_THREADS", 100)


@pytest.fixture(params=["sqlite", "redis"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LogOpener]:
    redis = RedisServer.start(tmp_path) if request.param == "redis" else None
    path, url = tmp_path / "log.db", redis.url if redis else ""
    yield (lambda: RedisLog(url)) if redis else (lambda: SQLiteLog(path))
    if redis:
        redis.stop()


def message(thread: str, n: int) -> str:
    return json.dumps({"kind": "message", "role": "user", "text": f"{thread} #{n}"})


def watched_threads(server: ThreadedServer) -> int:
    """Threads the server's log still watches (polls or blocks on) for followers."""
    watches: dict[str, Any] = server.app.state.toolview.log._watches
    return len(watches)


async def fill_log(open_log: LogOpener, ids: list[str]) -> None:
    """The same threads written straight into the log (CI: the API path is the long variant).

    SQLite's per-commit fsync is switched off for this set-up connection only;
    the server's own connection keeps ``synchronous=FULL``.
    """
    log = open_log()
    if isinstance(log, SQLiteLog):
        log._db.execute("PRAGMA synchronous=OFF")
    for thread in ids:
        await log.create_thread(thread)
        await log.append(thread, [decode_observation(message(thread, n)) for n in range(3)])
    await log.aclose()


async def fill(base: str, ids: list[str]) -> None:
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def one(thread: str) -> None:
            (await client.post("/api/threads", json={"id": thread})).raise_for_status()
            body = "\n".join(message(thread, n) for n in range(3))
            url = f"/api/threads/{thread}/observations"
            (await client.post(url, content=body, headers=NDJSON)).raise_for_status()

        await asyncio.gather(*(one(thread) for thread in ids))


def test_a_thousand_threads(opener: LogOpener) -> None:
    ids = [f"thread-{n:04d}" for n in range(THREADS)]
    asyncio.run(fill_log(opener, ids))
    with ThreadedServer(opener, keepalive=1.0) as server:
        check_threads(server, ids)


@pytest.mark.slow
def test_a_thousand_threads_through_the_api(opener: LogOpener) -> None:
    ids = [f"thread-{n:04d}" for n in range(max(THREADS, 1000))]
    with ThreadedServer(opener, keepalive=1.0) as server:
        asyncio.run(fill(server.url, ids))
        check_threads(server, ids)


def check_threads(server: ThreadedServer, ids: list[str]) -> None:
    with httpx.Client(base_url=server.url, timeout=120) as client:
        listed = client.get("/api/threads").json()["threads"]
        assert sorted(t["id"] for t in listed) == ids
        assert {t["lastSeq"] for t in listed} == {3}
        for thread in ids[:: max(1, len(ids) // 50)]:
            events = client.get(f"/api/threads/{thread}/events").json()["events"]
            assert [e["observation"]["text"] for e in events] == [
                f"{thread} #{n}" for n in range(3)
            ]

        followers = [ResumingFollower(server.url, thread).start() for thread in ids[:FOLLOWED]]
        try:
            for follower in followers:
                follower.wait_until(3)
            for thread in ids[:FOLLOWED]:
                url = f"/api/threads/{thread}/observations"
                client.post(url, content=message(thread, 3), headers=NDJSON).raise_for_status()
            for follower in followers:
                follower.wait_until(4)
        finally:
            stop_all(followers)
    for follower in followers:
        texts = [data["text"] for _, data in follower.frames]
        assert texts == [f"{follower.thread} #{n}" for n in range(4)]
    deadline = time.monotonic() + 60
    while watched_threads(server) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert watched_threads(server) == 0, "watchers outlive their followers"
