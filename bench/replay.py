"""Replay from the end of a thread: 10,000 vs 1,000,000 observations (SQLite and Redis).

Replay reads by seq — SQLite on the ``(thread, seq)`` primary key, Redis with
``XRANGE`` from an id — so reading the last 100 observations of a thread costs
the same whatever the thread's length. This prints, per backend and size, the
median time to open a replay 100 before the end and read to the end (best of
``RUNS``), and the time to fill the thread (not the subject).

    python bench/replay.py                 # 10k and 1M
    python bench/replay.py 10000 100000    # other sizes
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "wire"))

from toolview_servers import RedisServer

from toolview.contract import Message
from toolview.wire.log import ObservationLog, Replay
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog

RUNS = 50
TAIL = 100
CHUNK = 10_000


async def fill(log: ObservationLog, count: int) -> float:
    start = time.perf_counter()
    await log.create_thread("t")
    for first in range(0, count, CHUNK):
        items = [Message(role="user", text=f"message {n}") for n in range(first, first + CHUNK)]
        await log.append("t", items[: count - first])
    return time.perf_counter() - start


async def replay_tail(log: ObservationLog, count: int) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        replay = Replay(log, "t", count - TAIL)
        await replay.running_at_start()
        items = await replay.next_batch(TAIL)
        times.append(time.perf_counter() - start)
        assert [item.seq for item in items] == list(range(count - TAIL + 1, count + 1))
    return statistics.median(times)


async def measure(log: ObservationLog, count: int) -> tuple[float, float]:
    try:
        filled = await fill(log, count)
        return filled, await replay_tail(log, count)
    finally:
        await log.aclose()


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:]] or [10_000, 1_000_000]
    print(f"replay of the last {TAIL} observations (median of {RUNS})")
    print(f"{'backend':<8} {'observations':>12} {'fill s':>8} {'replay ms':>10}")
    with tempfile.TemporaryDirectory() as folder:
        redis = RedisServer.start(Path(folder))
        try:
            for size in sizes:
                sqlite = SQLiteLog(Path(folder) / f"{size}.db")
                sqlite._db.execute("PRAGMA synchronous=OFF")  # fill speed only
                for name, log in (
                    ("sqlite", sqlite),
                    ("redis", RedisLog(redis.url, prefix=f"b{size}")),
                ):
                    filled, replayed = asyncio.run(measure(log, size))
                    print(f"{name:<8} {size:>12,} {filled:>8.1f} {replayed * 1000:>10.2f}")
        finally:
            redis.stop()


if __name__ == "__main__":
    main()
