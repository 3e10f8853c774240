"""Redis killed (SIGKILL) and restarted mid-stream, on the same port and data directory.

Redis runs with an append-only file fsynced before every reply
(``appendfsync always``, see ``fault_tools.durable_redis``), so what Redis
acknowledged survives. While it is down the server answers ``503`` with a
message and ``Retry-After`` (never a bare 500 or a trace); a plain producer
sees those as clear errors, a ``BackgroundPublisher`` retries through them;
followers resume by ``Last-Event-ID``; nothing acknowledged is lost.

``TOOLVIEW_REDIS_RESTARTS`` sets the number of restarts (CI: 3).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from fault_tools import (
    Producer,
    ResumingFollower,
    assert_each_batch_stored_once,
    durable_redis,
    env_int,
    is_partial,
    observation,
    read_back,
    stored,
)
from toolview_servers import RedisServer, ToolviewServer, free_port

from toolview.contract import decode_observation, encode_observation
from toolview.remote.sender import BackgroundPublisher

RESTARTS = env_int("TOOLVIEW_REDIS_RESTARTS", 3)
DOWN = 0.4  # seconds Redis stays dead each time


def restart(redis: RedisServer, directory: Path) -> RedisServer:
    redis.stop()  # SIGKILL
    time.sleep(DOWN)
    return durable_redis(directory, redis.port)


def redis_restart_loop(tmp_path: Path, restarts: int) -> None:
    redis = durable_redis(tmp_path, free_port())
    server = ToolviewServer.start(["--port", "0", "--redis", redis.url])
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    producer = Producer(server.url, pause=0.01).start()
    follower = ResumingFollower(server.url).start()
    try:
        for _ in range(restarts):
            producer.wait_for(producer.count() + 6)
            follower.wait_until(1)
            errors_before = len(producer.errors)
            redis = restart(redis, tmp_path)
            producer.wait_for(producer.count() + 6)
            assert len(producer.errors) > errors_before, "no POST met the dead Redis"
        producer.stop()
        log, crossing = read_back(server.url, follower)
    finally:
        producer.stop()
        follower.stop()
        server.kill()
        redis.stop()

    assert_each_batch_stored_once(log, producer)
    assert [seq for seq, _ in follower.frames] == crossing, "a follower missed or repeated"
    for error in producer.errors:  # clear errors: a 503 that says why, or no connection
        assert error.startswith("503 ") and "observation log is unavailable" in error, error


def test_redis_restarted_mid_stream_loses_nothing_acknowledged(tmp_path: Path) -> None:
    redis_restart_loop(tmp_path, RESTARTS)


@pytest.mark.slow
def test_redis_restarted_mid_stream_long(tmp_path: Path) -> None:
    redis_restart_loop(tmp_path, max(RESTARTS, 30))


def canonical(item: dict[str, object]) -> bytes:
    return encode_observation(decode_observation(json.dumps(item).encode()))


def test_a_background_publisher_retries_through_a_redis_restart(tmp_path: Path) -> None:
    redis = durable_redis(tmp_path, free_port())
    server = ToolviewServer.start(["--port", "0", "--redis", redis.url])
    sent = [observation(n) for n in range(400)]
    try:
        publisher = BackgroundPublisher(f"{server.url}/threads/bg", capacity=4096)
        for n, item in enumerate(sent):
            publisher.put(decode_observation(json.dumps(item).encode()))
            if n == 150:
                redis = restart(redis, tmp_path)
            time.sleep(0.002)
        publisher.close()  # raises PublishError if anything was not published
        log = stored(server.url, "bg")
    finally:
        server.kill()
        redis.stop()
    # Partials may coalesce (a newer one carries the text); everything else arrives, in order.
    wanted = [canonical(item) for item in sent if not is_partial(item)]
    assert [canonical(item) for _, item in sorted(log.items()) if not is_partial(item)] == wanted
