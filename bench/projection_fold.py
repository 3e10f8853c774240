"""Projection fold: a thread's first projection, its CPU and the memory it holds, side by side.

Run: ``.venv/bin/python bench/projection_fold.py [--calls 5000] [--rounds 5]
[--before /work/wt/base/.venv/bin/python]``.

Writes ``--calls`` mixed calls (``bench/mixed_thread.py``) and loads them into
a SQLite log once (``serve --load``'s ``load_file``). Then, in rounds, each
interpreter (ours, and ``--before``'s: another tree's toolview on the same
log) runs a fresh child that projects the thread as a page view's server does
(``server.page.projection.Projections.current``: read, decode and fold every
record, in worker threads) and prints the CPU it took (``time.process_time``:
every thread of the child) and the anonymous resident memory it added
(RssAnon after ``gc.collect``, the projection held). The cold live view waits
for this (issue 23: 3); the server holds it per viewed thread (issue 23: 5).
Medians, and each round's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_toolview  # a sibling script, not a package

CHILD = """
import asyncio, gc, sys, time
from pathlib import Path
from toolview.server.page.projection import Projections
from toolview.wire.log.sqlite import SQLiteLog

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon"):  # not the log's file pages
            return int(line.split()[1]) / 1024

async def main():
    log = SQLiteLog(Path(sys.argv[1]))
    gc.collect()
    before, start = rss(), time.process_time()
    held = await Projections(log).current(sys.argv[2])  # held: what a server keeps
    cpu = time.process_time() - start
    gc.collect()
    print(cpu, rss() - before, len(held.thread.entries))
    await log.aclose()

asyncio.run(main())
"""


def load(calls: int, work: Path) -> tuple[Path, str]:
    """The log with the thread loaded, and the thread's id."""
    from toolview.cli.serve_load import load_file
    from toolview.wire.log.sqlite import SQLiteLog

    path = work / f"thread-{calls}.jsonl"
    write_toolview(path, calls)
    db = work / "log.db"
    print(asyncio.run(load_file(SQLiteLog(db), path)), file=sys.stderr)
    return db, path.stem


def fold(python: str, db: Path, thread: str) -> tuple[float, float]:
    """One child's fold: CPU seconds and MiB added."""
    out = subprocess.run(
        [python, "-c", CHILD, str(db), thread], capture_output=True, text=True, check=True
    )
    cpu, mib, _ = out.stdout.split()
    return float(cpu), float(mib)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", help="another tree's python, its rounds taking turns")
    args = parser.parse_args()
    runners = {"after": sys.executable} | ({"before": args.before} if args.before else {})
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
    with tempfile.TemporaryDirectory(prefix="projection-fold-") as name:
        db, thread = load(args.calls, Path(name))
        for _ in range(args.rounds):
            for runner, python in runners.items():
                got[runner].append(fold(python, db, thread))
                cpu, mib = got[runner][-1]
                print(f"  {runner}: {cpu:.3f} s CPU, +{mib:.0f} MiB", file=sys.stderr)
    print(f"\n{args.calls:,}-call thread, first projection (median of {args.rounds})\n")
    for runner, rounds in got.items():
        cpu = statistics.median(r[0] for r in rounds)
        low, high = min(r[0] for r in rounds), max(r[0] for r in rounds)
        mib = statistics.median(r[1] for r in rounds)
        print(f"{runner:8} {cpu:.3f} s CPU ({low:.3f}-{high:.3f}), +{mib:.0f} MiB resident")


if __name__ == "__main__":
    main()
