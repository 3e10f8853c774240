"""``/stats`` on 10,000 threads, and what pricing each turn adds to the index's first fold.

Run: ``.venv/bin/python bench/stats_scale.py [--threads 10000] [--src DIR]`` (``--src``: the
``src`` folder to serve from, e.g. ``/work/wt/base/src``, which has no ``/stats``: then only
the listing is timed, to compare).

The threads are the real Claude Code and Codex sessions in tests/hosts (their
sub-agents inlined as marks), alternating, each moved to a day of its own
(a day apart, back from now) and with its token counts scaled by its number, so
no two threads' turns are priced alike (``contract.cost`` caches a turn's
price: a copy of one session would be priced once). They are written to a
SQLite log in-process, then a real ``toolview serve`` on it is asked, over
HTTP: the first ``GET /api/threads`` (every card folded: each turn priced),
then warm (median of ``--runs``), and ``GET /stats`` (first and warm).
Times are wall clock on the client: one request at a time, on a shared box.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from search_scale import serve  # noqa: E402

from toolview.contract import Observation, Usage  # noqa: E402
from toolview.hosts import claude_code, codex  # noqa: E402
from toolview.wire.log.sqlite import SQLiteLog  # noqa: E402

TESTS = HERE.parent / "tests" / "hosts"
CLAUDE = TESTS / "claude_code" / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
CODEX = next((TESTS / "codex" / "real" / "sessions").rglob("rollout-*-bcb4-*.jsonl"))


def sessions() -> list[list[Observation]]:
    return [
        [o for o in claude_code.load_observations(CLAUDE) if isinstance(o, Observation)],
        [o for o in codex.load_observations(CODEX) if isinstance(o, Observation)],
    ]


def moved(observations: list[Observation], n: int) -> list[Observation]:
    """Thread ``n``: a day further back, its turns' tokens scaled so none repeats another's."""
    day = datetime.now(UTC) - timedelta(days=n % 400)
    out: list[Observation] = []
    for o in observations:
        if isinstance(o, Usage):
            o = msgspec.structs.replace(
                o, input_tokens=o.input_tokens * (n + 1) + n, output_tokens=o.output_tokens + n
            )
        if isinstance(o.at, str):
            o = msgspec.structs.replace(o, at=day.strftime("%Y-%m-%d") + o.at[10:])
        out.append(o)
    return out


async def write(db: Path, count: int) -> None:
    log = SQLiteLog(db)
    log._db.execute("PRAGMA synchronous=OFF")  # a bench's scratch file: no fsync a thread
    bases = sessions()
    for n in range(count):
        await log.create_thread(f"t{n:05d}")
        await log.append(f"t{n:05d}", moved(bases[n % 2], n))


def timed(url: str) -> float:
    began = time.perf_counter()
    httpx.get(url, timeout=600).raise_for_status()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, default=HERE.parent / "src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "log.db"
        began = time.perf_counter()
        asyncio.run(write(db, args.threads))
        print(f"wrote {args.threads:,} threads in {time.perf_counter() - began:.1f} s")
        process, url = serve(args.src, db)
        try:
            print(f"first GET /api/threads   {timed(url + '/api/threads'):7.2f} s")
            warm = [timed(url + "/api/threads") for _ in range(args.runs)]
            print(f"warm GET /api/threads    {statistics.median(warm):7.2f} s (median)")
            if httpx.get(url + "/stats", timeout=600).status_code == 404:
                return
            warm = [timed(url + "/stats") for _ in range(args.runs)]
            print(f"warm GET /stats          {statistics.median(warm):7.2f} s (median)")
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
