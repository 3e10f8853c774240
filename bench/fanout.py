"""500 followers on one thread: frames/s delivered, server CPU per 1,000 frames, peak memory.

A real ``toolview serve`` process per log backend (SQLite file; Redis Streams on
a real redis-server); 500 SSE followers (raw asyncio sockets in this process)
follow one thread while a producer posts 200 observations in batches of 10,
50 ms apart. ``elide`` (the default): assistant messages, each one frame.
``live``: one call's growing output (a line per update), so followers get
append deltas, coalesced to 10 a second per call, and stop at its completion.
CPU and peak RSS are the server process's own (from /proc).
Run: .venv/bin/python bench/fanout.py [followers] [observations] [elide|live]
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

from toolview_servers import NDJSON, RedisServer, ToolviewServer

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


DONE = b'"complete":true'


async def follower(port: int, mode: str, expected: int, counts: list[int]) -> None:
    """Count frames (``id:`` lines) until ``expected`` (elide) or the call completes (live)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"GET /api/threads/t/follow?mode={mode} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    writer.write(head.encode())
    await writer.drain()
    seen, index = 0, len(counts)
    counts.append(0)
    buffer, done = b"", False
    while not done:
        chunk = await reader.read(65536)
        if not chunk:
            break
        buffer += chunk
        seen += buffer.count(b"\nid: ")
        done = seen >= expected or (mode == "live" and DONE in buffer)
        buffer = buffer[-(len(DONE) - 1) :]  # no whole match kept: none counted twice
        counts[index] = seen
    writer.close()


def batch_body(mode: str, batch: int, last: bool) -> str:
    """Ten observations: messages (elide), or ten updates of one call's output (live)."""
    if mode == "elide":
        texts = [f"msg {batch}.{n} " * 8 for n in range(10)]
        return "".join(
            json.dumps({"kind": "message", "role": "assistant", "text": text}) + "\n"
            for text in texts
        )
    lines = [json.dumps({**CALL, "args": {}})] if batch == 0 else []
    for n in range(10):
        text = "".join(f"line {k}: some output\n" for k in range(batch * 10 + n + 1))
        complete = last and n == 9
        lines.append(json.dumps({**CALL, **RESULT, "text": text, "complete": complete}))
    return "".join(line + "\n" for line in lines)


CALL = {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell"}
RESULT = {"kind": "tool-result", "isError": False}


async def measure(
    server: ToolviewServer, followers: int, observations: int, mode: str = "elide"
) -> dict[str, float]:
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    counts: list[int] = []
    expected = observations if mode == "elide" else 10**9
    tasks = [
        asyncio.create_task(follower(server.port, mode, expected, counts)) for _ in range(followers)
    ]
    await asyncio.sleep(3)  # let every follower connect and settle
    cpu0, start = cpu_seconds(server.process.pid), time.monotonic()
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        batches = observations // 10
        for batch in range(batches):
            body = batch_body(mode, batch, batch == batches - 1)
            (
                await client.post("/api/threads/t/observations", content=body, headers=NDJSON)
            ).raise_for_status()
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
    mode = sys.argv[3] if len(sys.argv) > 3 else "elide"
    if mode not in ("elide", "live"):
        raise SystemExit(f"mode must be elide or live, not {mode!r}")
    print(f"{followers} followers, {observations} observations each, {mode} mode")
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
                    r = asyncio.run(measure(server, followers, observations, mode))
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
