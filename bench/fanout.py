"""500 followers on one thread: frames/s delivered, server CPU per 1,000 frames, peak memory.

A real ``toolview serve`` process per log backend (SQLite file; Redis Streams on
a real redis-server); 500 SSE followers (raw asyncio sockets in this process)
follow one thread in ``elide`` mode while a producer posts 200 observations in
batches. CPU and peak RSS are the server process's own (from /proc).
Run: .venv/bin/python bench/fanout.py [followers] [observations]
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "wire"))

from toolview_servers import RedisServer, ToolviewServer

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def follower(port: int, expected: int, ready: asyncio.Event, counts: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/threads/t/follow HTTP/1.1\r\nHost: bench\r\n\r\n")
    await writer.drain()
    seen, index = 0, len(counts)
    counts.append(0)
    buffer = b""
    while seen < expected:
        chunk = await reader.read(65536)
        if not chunk:
            break
        buffer += chunk
        seen += buffer.count(b"\nid: ") + buffer.startswith(b"id: ")
        buffer = buffer[-8:]
        counts[index] = seen
        ready.set()
    writer.close()


async def measure(server: ToolviewServer, followers: int, observations: int) -> dict[str, float]:
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    counts: list[int] = []
    ready = asyncio.Event()
    tasks = [
        asyncio.create_task(follower(server.port, observations, ready, counts))
        for _ in range(followers)
    ]
    await asyncio.sleep(3)  # let every follower connect and settle
    cpu0, start = cpu_seconds(server.process.pid), time.monotonic()
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        for batch in range(observations // 10):
            body = "".join(
                json.dumps(
                    {"kind": "message", "role": "assistant", "text": f"msg {batch}.{n} " * 8}
                )
                + "\n"
                for n in range(10)
            )
            (await client.post("/api/threads/t/observations", content=body)).raise_for_status()
            await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    elapsed, cpu = time.monotonic() - start, cpu_seconds(server.process.pid) - cpu0
    frames = sum(counts)
    return {
        "frames": frames,
        "seconds": elapsed,
        "fps": frames / elapsed,
        "cpu_per_1000": cpu / frames * 1000,
        "peak_mb": peak_rss_mb(server.process.pid),
    }


def raise_file_limit() -> None:
    """500 followers need ~1,100 descriptors here and in the server (which inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))


def main() -> None:
    raise_file_limit()
    followers = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    observations = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    print(f"{followers} followers, {observations} observations each")
    print(
        f"{'backend':<9}{'frames':>9}{'seconds':>9}{'frames/s':>10}{'CPU s/1k':>10}{'peak MB':>9}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer.start(Path(tmp))
        try:
            for backend, args in (
                ("sqlite", ["--db", str(Path(tmp) / "log.db")]),
                ("redis", ["--redis", redis.url]),
            ):
                server = ToolviewServer.start(["--port", "0", *args])
                try:
                    r = asyncio.run(measure(server, followers, observations))
                finally:
                    server.kill()
                print(
                    f"{backend:<9}{r['frames']:>9.0f}{r['seconds']:>9.1f}{r['fps']:>10.0f}"
                    f"{r['cpu_per_1000']:>10.3f}{r['peak_mb']:>9.0f}"
                )
        finally:
            redis.stop()


if __name__ == "__main__":
    main()
