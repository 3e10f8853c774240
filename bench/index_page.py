"""``GET /api/threads`` at 10,000 sessions: the whole listing vs one page of it (``?limit=100``).

Run: ``.venv/bin/python bench/index_page.py [--sessions 10000] [--runs 5]
[--before /work/wt/base3/src] [--log FILE]``. The log is made as
``bench/index_scale.py`` makes it (the real sessions, round-robin); each
checkout's ``toolview serve`` reads it, lists it once (cold: every record
read), then the median of ``--runs`` warm answers: bytes, wall time, and the
server's CPU for them (``/proc/<pid>/stat``, user + sys). ``--before``'s
server has no paging: its ``?limit=100`` answer is the whole listing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from index_scale import fill
from search_scale import serve

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def measure(src: Path, db: Path, runs: int) -> dict[str, tuple[int, float, float]]:
    process, url = serve(src, db)
    try:
        httpx.get(f"{url}/api/threads", timeout=600).raise_for_status()  # cold: read every record
        out = {}
        for name, query in (("whole", ""), ("page", "?limit=100&sort=startedAt")):
            sizes, walls, cpus = [], [], []
            for _ in range(runs):
                before, start = cpu_s(process.pid), time.perf_counter()
                body = httpx.get(f"{url}/api/threads{query}", timeout=600).content
                walls.append(time.perf_counter() - start)
                cpus.append(cpu_s(process.pid) - before)
                sizes.append(len(body))
            out[name] = (sizes[0], statistics.median(walls), statistics.median(cpus))
        return out
    finally:
        process.terminate()
        process.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args()
    db = args.log or Path(tempfile.mkdtemp()) / "index.db"
    if not db.exists():
        asyncio.run(fill(db, args.sessions))
    sides = [("this", ROOT / "src")] + ([("before", args.before)] if args.before else [])
    for side, src in sides:
        for name, (size, wall, cpu) in measure(src, db, args.runs).items():
            print(f"{side:6} {name:5} {size / 1e6:7.2f} MB  wall {wall:6.3f} s  cpu {cpu:6.3f} s")


if __name__ == "__main__":
    main()
