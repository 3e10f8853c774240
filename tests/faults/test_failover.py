"""One of two server processes sharing Redis killed while a producer streams.

Extends tests/server/test_resume.py (a follower resumes on the other process
after a static thread) with the fault mid-stream, in a loop: both servers
share one Redis; the producer and the follower talk to one server and move to
the other when it dies; the dead one is restarted and the other killed next.
Nothing acknowledged is lost, the follower misses and repeats nothing.

``TOOLVIEW_FAILOVER_LOOPS`` sets the number of kills (CI: 4).
"""

from __future__ import annotations

from pathlib import Path

import httpx
from fault_tools import (
    Producer,
    ResumingFollower,
    assert_each_batch_stored_once,
    durable_redis,
    env_int,
    read_back,
)
from toolview_servers import ToolviewServer, free_port

LOOPS = env_int("TOOLVIEW_FAILOVER_LOOPS", 4)


def test_killing_either_of_two_servers_mid_stream_loses_nothing(tmp_path: Path) -> None:
    redis = durable_redis(tmp_path, free_port())
    servers = [ToolviewServer.start(["--port", "0", "--redis", redis.url]) for _ in range(2)]
    bases = [server.url for server in servers]
    httpx.post(f"{bases[0]}/api/threads", json={"id": "t"}).raise_for_status()
    producer = Producer(bases, pause=0.01).start()
    follower = ResumingFollower(bases).start()
    try:
        for loop in range(LOOPS):
            producer.wait_for(producer.count() + 6)
            follower.wait_until(1)
            victim = servers[loop % 2]
            victim.kill()  # SIGKILL: its producer and followers move to the other
            producer.wait_for(producer.count() + 6)
            port = str(victim.port)
            servers[loop % 2] = ToolviewServer.start(["--port", port, "--redis", redis.url])
        producer.stop()
        log, crossing = read_back(bases[0], follower)
    finally:
        producer.stop()
        follower.stop()
        for server in servers:
            server.kill()
        redis.stop()

    assert_each_batch_stored_once(log, producer)
    assert [seq for seq, _ in follower.frames] == crossing, "the follower missed or repeated"
    assert follower.connects > LOOPS // 2  # it did move between the servers
