"""A producer sending faster than its followers read, on both log backends.

Three followers of one thread: one reads as fast as it can, one spends a
millisecond per frame, one stops reading after ten frames until the producer
is done. The producer is never held back by them (it finishes while the
stopped one is far behind), and afterwards every follower has every frame
exactly once, in order.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fault_tools import ResumingFollower, env_int
from toolview_servers import NDJSON, RedisServer, ToolviewServer

OBSERVATIONS = env_int("TOOLVIEW_FAST_PRODUCER", 4000)


@pytest.fixture(params=["sqlite", "redis"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ToolviewServer]:
    redis = RedisServer.start(tmp_path) if request.param == "redis" else None
    store = ["--redis", redis.url] if redis else ["--db", str(tmp_path / "log.db")]
    started = ToolviewServer.start(["--port", "0", *store])
    yield started
    started.kill()
    if redis:
        redis.stop()


def produce(base: str, count: int) -> int:
    text = "y" * 2000
    last = 0
    with httpx.Client(base_url=base, timeout=120) as client:
        for first in range(0, count, 100):
            lines = [
                json.dumps({"kind": "message", "role": "user", "text": f"{n} {text}"})
                for n in range(first, min(first + 100, count))
            ]
            response = client.post(
                "/api/threads/t/observations", content="\n".join(lines), headers=NDJSON
            )
            response.raise_for_status()
            last = response.json()["seqs"][-1]
    return last


def test_a_producer_is_never_held_back_by_slow_followers(server: ToolviewServer) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    gate = threading.Event()
    followers = [
        ResumingFollower(server.url),
        ResumingFollower(server.url, delay=0.001),
        ResumingFollower(server.url, gate=gate),
    ]
    for follower in followers:
        follower.start()
    try:
        last = produce(server.url, OBSERVATIONS)
        behind = followers[2].last_id
        gate.set()
        for follower in followers:
            follower.wait_until(last, timeout=300)
    finally:
        gate.set()
        for follower in followers:
            follower.stop()
    assert behind < last // 2, "the stopped follower kept up: the test did not bite"
    for follower in followers:
        assert [seq for seq, _ in follower.frames] == list(range(1, last + 1))
        assert follower.frames[-1][1]["text"].startswith(f"{OBSERVATIONS - 1} ")
