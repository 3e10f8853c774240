"""``kill -9`` of the server while a producer streams into SQLite, in a loop.

Each round: a producer posts small batches non-stop and a follower reads the
thread over SSE; the server is killed with SIGKILL mid-stream and restarted on
the same port and file. The producer resends a cut batch under its
``Idempotency-Key`` until it is acknowledged. Afterwards the log holds every
batch exactly once, in order (a batch committed just before a kill and resent
is not stored twice), every acknowledged seq holds what was posted, and the
follower — which resumed by ``Last-Event-ID`` after every kill — saw every
observation that crosses the wire exactly once, in order.

``TOOLVIEW_FAULT_LOOPS`` sets the number of kills (CI: 20).
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fault_tools import (
    Producer,
    ResumingFollower,
    assert_each_batch_stored_once,
    env_int,
    read_back,
)
from toolview_servers import ToolviewServer

LOOPS = env_int("TOOLVIEW_FAULT_LOOPS", 20)


def kill_and_restart_loop(tmp_path: Path, loops: int) -> None:
    db = str(tmp_path / "log.db")
    server = ToolviewServer.start(["--port", "0", "--db", db])
    port = str(server.port)
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    producer = Producer(server.url).start()
    follower = ResumingFollower(server.url).start()
    try:
        for loop in range(loops):
            producer.wait_for(producer.count() + 6)  # at least two more batches acked
            follower.wait_connects(loop + 1)  # following this server before it dies
            server.kill()  # SIGKILL, mid-stream
            server = ToolviewServer.start(["--port", port, "--db", db])
        producer.wait_for(producer.count() + 6)
        producer.stop()
        log, crossing = read_back(server.url, follower)
    finally:
        producer.stop()
        follower.stop()
        server.kill()

    assert_each_batch_stored_once(log, producer)
    ids = [seq for seq, _ in follower.frames]
    assert ids == crossing, "the follower missed or repeated a frame"
    assert [data for _, data in follower.frames] == [log[seq] for seq in crossing]
    assert follower.connects >= loops + 1  # it really resumed after every kill
    assert producer.errors, "no POST was ever cut by a kill: the test did not bite"


def test_kill_9_mid_stream_loses_nothing_acknowledged(tmp_path: Path) -> None:
    kill_and_restart_loop(tmp_path, LOOPS)


@pytest.mark.slow
def test_kill_9_mid_stream_long(tmp_path: Path) -> None:
    kill_and_restart_loop(tmp_path, max(LOOPS, 200))
