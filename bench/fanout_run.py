"""One run of ``bench/fanout.py``: the followers, the producer, what they measured."""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from toolview_servers import NDJSON, ToolviewServer

TICKS = os.sysconf("SC_CLK_TCK")
MARKER = re.compile(rb"#(\d+);")
DONE = b'"complete":true'
CALL = {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {}}
FILLER = " some output of the command, about one line of a build log\n"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def raise_file_limit() -> None:
    """500 followers need ~1,100 descriptors here and in the server (which inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))


@dataclass
class Result:
    frames: int = 0
    cpu_ms_per_frame: float = 0.0
    latencies: list[float] = field(default_factory=list)
    missing: int = 0  # (follower, update) pairs never seen
    peak_mb: float = 0.0

    def latency(self, quantile: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] if ordered else 0.0


@dataclass
class Follower:
    """Counts frames and notes when each update's marker arrived."""

    published: dict[int, float]
    frames: int = 0
    seen: dict[int, float] = field(default_factory=dict)
    connected: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, port: int, thread: str, mode: str, last: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        path = (
            f"/api/threads/{thread}/agui?follow=1"
            if mode == "agui"
            else f"/api/threads/{thread}/follow?mode={mode}"
        )
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        carry = b""
        try:
            while last not in self.seen:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                now = time.monotonic()
                self.frames += chunk.count(b"id: ")
                self.connected.set()
                for match in MARKER.finditer(carry + chunk):
                    self.seen.setdefault(int(match[1]), now)
                carry = chunk[-16:]
        finally:
            writer.close()


def update(mode: str, n: int, text: str, last: bool) -> dict[str, object]:
    """Update ``n``: a message (elide, agui), or the call's output so far (live)."""
    if mode != "live":
        return {"kind": "message", "role": "assistant", "text": f"#{n};{FILLER}"}
    result = {"kind": "tool-result", "toolCallId": "c1", "toolName": "shell", "isError": False}
    return {**result, "text": text, "complete": last}


async def measure(
    server: ToolviewServer, thread: str, followers: int, updates: int, rate: float, mode: str
) -> Result:
    """Publish ``updates`` at ``rate`` a second to ``followers`` of a new thread."""
    published: dict[int, float] = {}
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        (await client.post("/api/threads", json={"id": thread})).raise_for_status()
        body = json.dumps(CALL) + "\n"
        posted = await client.post(
            f"/api/threads/{thread}/observations", content=body, headers=NDJSON
        )
        posted.raise_for_status()
        crowd = [Follower(published) for _ in range(followers)]
        tasks = [asyncio.create_task(f.run(server.port, thread, mode, updates)) for f in crowd]
        await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in crowd)), 120)
        await asyncio.sleep(1)
        before = sum(f.frames for f in crowd)
        cpu0, start = cpu_seconds(server.process.pid), time.monotonic()
        text = ""
        for n in range(1, updates + 1):
            await asyncio.sleep(max(0.0, start + n / rate - time.monotonic()))
            text += f"#{n};{FILLER}"
            line = json.dumps(update(mode, n, text, n == updates)) + "\n"
            published[n] = time.monotonic()
            response = await client.post(
                f"/api/threads/{thread}/observations", content=line, headers=NDJSON
            )
            response.raise_for_status()
        await asyncio.wait(tasks, timeout=120)
        cpu = cpu_seconds(server.process.pid) - cpu0
    for task in tasks:
        task.cancel()
    frames = sum(f.frames for f in crowd) - before
    latencies = [at - published[n] for f in crowd for n, at in f.seen.items() if n in published]
    missing = followers * updates - len(latencies)
    return Result(
        frames, cpu / max(1, frames) * 1000, latencies, missing, peak_rss_mb(server.process.pid)
    )
