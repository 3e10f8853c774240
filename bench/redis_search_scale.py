"""The Redis log's search index (``wire.log.redis_search``) at 10,000 sessions: build time, memory.

Run: ``.venv/bin/python bench/redis_search_scale.py [--sessions 10000] [--runs 3]``.

The sessions are bench/index_scale.py's (the real Claude Code sessions and
Codex rollouts from tests/hosts, copied round-robin under fresh ids, times
moved), appended to a fresh ``redis-server`` (no persistence) through
``RedisLog``. Then, ``--runs`` times, a child process opens the log as a
server process does and builds its index from the streams (what
``toolview serve --redis`` does at start): the child's CPU (user + sys,
``os.wait4``) and wall time of the build, its resident memory grown by it,
the rows indexed, and one search over every session. Medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from index_scale import _moved, sources

from toolview.wire.log.redis import RedisLog

CHILD = """
import asyncio, json, sys, time
from toolview.wire.log.redis import RedisLog

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

async def main():
    log = RedisLog(sys.argv[1], search_bytes=int(sys.argv[2]) * 2**20)  # serve --search-memory
    before, start = rss(), time.monotonic()
    assert await log._search.caught_up(3600)
    built = time.monotonic() - start
    grown = rss() - before
    start = time.monotonic()
    found = await log.search("file", 50, 30)
    searched = time.monotonic() - start
    print(json.dumps([built, grown, len(log._search.index), searched, len(found.hits)]))
    await log.aclose()

asyncio.run(main())
"""


async def fill(url: str, count: int) -> None:
    """``count`` sessions in the Redis log at ``url``, round-robin over the real ones."""
    real = sources()
    log = RedisLog(url)
    try:
        for n in range(count):
            agent, observations = real[n % len(real)]
            thread = f"{agent}-{n:05d}"
            await log.create_thread(thread)
            await log.append(thread, [_moved(o, n) for o in observations])
    finally:
        await log.aclose()


def child(url: str, mib: int) -> tuple[float, list[float]]:
    """One build in a fresh process (an index of ``mib`` MiB): its CPU seconds, its output."""
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, url, str(mib)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    assert status == 0, out
    return usage.ru_utime + usage.ru_stime, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--search-memory", type=int, default=1024, metavar="MIB")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="redis-search-"))
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    sock = work / "redis.sock"
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no"],
        cwd=work,
        stdout=subprocess.DEVNULL,
    )
    try:
        while not sock.exists():
            time.sleep(0.05)
        url = f"unix://{sock}"
        start = time.monotonic()
        asyncio.run(fill(url, args.sessions))
        print(f"filled {args.sessions} sessions in {time.monotonic() - start:.0f} s", flush=True)
        runs = [child(url, args.search_memory) for _ in range(args.runs)]
        cpu = statistics.median(r[0] for r in runs)
        built, grown, rows, searched, hits = (
            statistics.median(r[1][i] for r in runs) for i in range(5)
        )
        print(
            f"build: {built:.1f} s wall, {cpu:.1f} s CPU (child); memory +{grown / 2**20:.0f} MiB;"
            f" {rows:.0f} rows; a search of one word (file): {searched * 1000:.0f} ms,"
            f" {hits:.0f} hits"
        )
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
