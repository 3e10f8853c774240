"""Followers that stop reading: the server's memory stays bounded, others are unaffected.

A real ``toolview serve`` (SQLite). ``STALLED`` clients open a follow stream
with a tiny receive buffer and never read; a healthy follower reads
everything; a producer writes ``MB`` megabytes. The thread's hub encodes each
frame once and offers it to every follower's bounded queue; a stalled
follower overflows it, leaves the hub with its queue freed, and holds only
the write it is blocked in: the server's RSS (sampled from
/proc/<pid>/status) grows by far less than the data times the followers.

``TOOLVIEW_STALLED`` (CI: 50) and ``TOOLVIEW_STALLED_MB`` (CI: 16) scale it.
The figure is printed (run with ``-s``) and quoted in docs/reliability.md.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import pytest
from fault_tools import ResumingFollower, RssSampler, env_int, rss_kib
from toolview_servers import NDJSON, ToolviewServer

STALLED = env_int("TOOLVIEW_STALLED", 50)
MEGABYTES = env_int("TOOLVIEW_STALLED_MB", 16)


def bound_mib(stalled: int) -> int:
    """32 MiB plus 1/4 MiB per stalled follower, whatever is produced: 44 MiB in CI.

    Measured +25–29 MiB (50 stalled, 16 MiB) and +58–62 MiB (300, 64 MiB). Before
    the hub every follower made its own frames and the shared redaction memo
    kept them: +91 MiB, which this bound fails. Unbounded buffering would
    need stalled × produced (800 MiB in CI).
    """
    return 32 + stalled // 4


def stalled_client(port: int) -> socket.socket:
    """A follower that sends its request and then never reads a byte."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /api/threads/t/follow HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def produce(base: str, megabytes: int) -> int:
    """Post ``megabytes`` MiB of 16 KiB messages, 1 MiB per request; the last seq."""
    text = "x" * (16 * 1024 - 64)
    last = 0
    with httpx.Client(base_url=base, timeout=120) as client:
        for batch in range(megabytes):
            lines = [
                json.dumps({"kind": "message", "role": "assistant", "text": f"{batch}.{n} {text}"})
                for n in range(64)
            ]
            response = client.post(
                "/api/threads/t/observations", content="\n".join(lines), headers=NDJSON
            )
            response.raise_for_status()
            last = response.json()["seqs"][-1]
    return last


def stalled_followers(tmp_path: Path, stalled: int, megabytes: int) -> tuple[int, int]:
    server = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    sockets: list[socket.socket] = []
    healthy = ResumingFollower(server.url)
    try:
        httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
        sockets = [stalled_client(server.port) for _ in range(stalled)]
        healthy.start()
        baseline = rss_kib(server.process.pid)
        with RssSampler(server.process.pid) as sampler:
            last = produce(server.url, megabytes)
            healthy.wait_until(last, timeout=300)
        alive = server.process.poll() is None
    finally:
        healthy.stop()
        for sock in sockets:
            sock.close()
        server.kill()
    assert alive
    assert [seq for seq, _ in healthy.frames] == list(range(1, last + 1))
    growth = (sampler.peak - baseline) // 1024
    print(
        f"\nstalled followers: {stalled}, produced {megabytes} MiB: server RSS "
        f"{baseline // 1024} MiB at start, peak {sampler.peak // 1024} MiB (+{growth} MiB)"
    )
    assert growth < bound_mib(stalled), f"server RSS grew by {growth} MiB"
    return baseline, sampler.peak


def test_stalled_followers_keep_memory_bounded(tmp_path: Path) -> None:
    stalled_followers(tmp_path, STALLED, MEGABYTES)


@pytest.mark.slow
def test_stalled_followers_long(tmp_path: Path) -> None:
    stalled_followers(tmp_path, max(STALLED, 300), max(MEGABYTES, 64))
