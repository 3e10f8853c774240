"""Resume by Last-Event-ID across a killed server process (SQLite) and a failover (Redis).

Real ``toolview serve`` processes; the follower reconnects with the last id it
saw and must get everything after it exactly once.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from sse_client import read_frames
from toolview_servers import NDJSON, RedisServer, ToolviewServer


def message(n: int) -> dict[str, object]:
    return {"kind": "message", "role": "assistant", "text": f"message {n}"}


def post(base: str, first: int, last: int) -> None:
    body = "".join(json.dumps(message(n)) + "\n" for n in range(first, last))
    httpx.post(
        f"{base}/api/threads/t/observations", content=body, headers=NDJSON, timeout=60
    ).raise_for_status()


def texts(frames: list) -> list[str]:  # type: ignore[type-arg]
    return [frame.data["text"] for frame in frames]


def test_resume_after_the_sqlite_server_is_killed_and_restarted(tmp_path: Path) -> None:
    db = str(tmp_path / "log.db")
    server = ToolviewServer.start(["--port", "0", "--db", db])
    try:
        httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
        post(server.url, 0, 10)
        seen = read_frames(f"{server.url}/api/threads/t/follow", until=lambda f: len(f) == 6)
    finally:
        server.kill()
    port = str(server.port)
    restarted = ToolviewServer.start(["--port", port, "--db", db])
    try:
        post(restarted.url, 10, 15)
        url = f"{restarted.url}/api/threads/t/follow"
        rest = read_frames(
            url, headers={"Last-Event-ID": seen[-1].id or ""}, until=lambda f: len(f) == 9
        )
    finally:
        restarted.kill()
    assert texts(seen + rest) == [f"message {n}" for n in range(15)]
    assert [int(f.id or 0) for f in seen + rest] == list(range(1, 16))


def test_failover_between_two_servers_sharing_redis(tmp_path: Path) -> None:
    redis = RedisServer.start(tmp_path)
    first = ToolviewServer.start(["--port", "0", "--redis", redis.url])
    second = ToolviewServer.start(["--port", "0", "--redis", redis.url])
    try:
        httpx.post(f"{first.url}/api/threads", json={"id": "t"}).raise_for_status()
        post(first.url, 0, 8)
        seen = read_frames(f"{first.url}/api/threads/t/follow", until=lambda f: len(f) == 5)
        first.kill()
        post(second.url, 8, 12)  # the producer moves on to the surviving server too
        url = f"{second.url}/api/threads/t/follow"
        rest = read_frames(
            url, headers={"Last-Event-ID": seen[-1].id or ""}, until=lambda f: len(f) == 7
        )
    finally:
        first.kill() if first.process.poll() is None else None
        second.kill()
        redis.stop()
    assert texts(seen + rest) == [f"message {n}" for n in range(12)]
    assert [int(f.id or 0) for f in seen + rest] == list(range(1, 13))


def test_a_live_follower_fails_over_mid_call_without_losing_output(tmp_path: Path) -> None:
    redis = RedisServer.start(tmp_path)
    first = ToolviewServer.start(["--port", "0", "--redis", redis.url])
    second = ToolviewServer.start(["--port", "0", "--redis", redis.url])

    def partial(text: str, complete: bool = False) -> str:
        return (
            json.dumps(
                {
                    "kind": "tool-result",
                    "toolCallId": "c1",
                    "toolName": "shell",
                    "text": text,
                    "complete": complete,
                    "isError": False,
                }
            )
            + "\n"
        )

    try:
        httpx.post(f"{first.url}/api/threads", json={"id": "t"}).raise_for_status()
        httpx.post(
            f"{first.url}/api/threads/t/observations", content=partial("one\n"), headers=NDJSON
        ).raise_for_status()
        seen = read_frames(
            f"{first.url}/api/threads/t/follow?mode=live", until=lambda f: len(f) == 1
        )
        first.kill()
        body = partial("one\ntwo\n") + partial("one\ntwo\nthree\n", complete=True)
        httpx.post(
            f"{second.url}/api/threads/t/observations", content=body, headers=NDJSON
        ).raise_for_status()
        url = f"{second.url}/api/threads/t/follow?mode=live"
        rest = read_frames(
            url,
            headers={"Last-Event-ID": seen[-1].id or ""},
            until=lambda f: bool(f) and f[-1].data.get("complete") is True,
        )
    finally:
        second.kill()
        redis.stop()
    assert seen[0].data["op"] == "reset" and seen[0].data["text"] == "one\n"
    assert rest[0].data["op"] == "reset"  # a resumed follower mid-call starts from a reset
    shown = rest[0].data["text"]
    for frame in rest[1:]:
        shown += frame.data["text"]
    assert shown == "one\ntwo\nthree\n"
