"""Followers of one live thread: server CPU per follower-frame and publish-to-frame latency.

A real ``toolview serve`` process per log backend (SQLite file; Redis Streams
on a real redis-server) and per code: this checkout, and (``--against``, by
default the commit before the hub) the same bench on that commit's ``src``
exported with ``git archive``, run right after in the same process, so the two
are measured side by side on the same machine and load. ``followers`` SSE
followers (raw asyncio sockets in this process) follow one thread while a
producer publishes ``rate`` updates a second for ``seconds``:

- ``live`` (the default): one call's growing output, a line per update, so
  followers get one append delta per update (5 a second is under the
  10-a-second coalescing);
- ``elide``: an assistant message per update, one frame each;
- ``agui``: the same messages to live AG-UI followers (``/agui?follow=1``),
  three events each (a "frame" is an event).

Each update's line carries its number; a follower that reads it notes the
time since the producer began its POST: the publish-to-frame latency
(p50 / p95 / max over every follower and update). Server CPU (from /proc)
while publishing, divided by the frames all followers received, is the CPU
per follower-frame. Peak RSS is the server's.

Run: .venv/bin/python bench/fanout.py [--followers 500] [--rate 5] [--seconds 20]
     [--mode live|elide|agui] [--against REV|none] [--backends sqlite,redis]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "wire"))

from fanout_run import Result, measure, raise_file_limit
from toolview_servers import REPO, RedisServer, ToolviewServer

BASELINE = "0b2290d"  # main before the hub (issue 13): the figures it replaces


def export_source(rev: str, into: Path) -> Path:
    """``src`` of commit ``rev``, written under ``into``: the server imports toolview from it."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def row(code: str, backend: str, r: Result) -> str:
    cpu = r.cpu_ms_per_frame
    p50, p95, top = r.latency(0.50), r.latency(0.95), max(r.latencies, default=0.0)
    return (
        f"{code:<10}{backend:<8}{r.frames:>9}{cpu:>10.4f}{p50 * 1000:>9.0f}"
        f"{p95 * 1000:>9.0f}{top * 1000:>9.0f}{r.missing:>8}{r.peak_mb:>9.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", type=int, default=500)
    parser.add_argument("--rate", type=float, default=5.0, help="updates a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--mode", choices=("live", "elide", "agui"), default="live")
    parser.add_argument("--against", default=BASELINE, help="a git revision, or 'none'")
    parser.add_argument("--backends", default="sqlite,redis")
    args = parser.parse_args()
    raise_file_limit()
    updates = max(1, round(args.rate * args.seconds))
    print(
        f"{args.followers} followers, {updates} updates at {args.rate:g}/s, {args.mode} mode; "
        f"CPU = server CPU ms per follower-frame; latency = publish to frame, ms"
    )
    header = f"{'code':<10}{'backend':<8}{'frames':>9}{'CPU ms':>10}{'p50':>9}{'p95':>9}"
    print(f"{header}{'max':>9}{'missing':>8}{'peak MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        codes: list[tuple[str, Path | None]] = [("this", None)]
        if args.against != "none":
            (Path(tmp) / "old").mkdir()
            codes.append((args.against[:10], export_source(args.against, Path(tmp) / "old")))
        redis = RedisServer.start(Path(tmp))
        try:
            for backend in args.backends.split(","):
                for code, source in codes:
                    log = ["--db", str(Path(tmp) / f"{code}.db")]
                    if backend == "redis":
                        log = ["--redis", redis.url]
                    server = ToolviewServer.start(["--port", "0", *log], source=source)
                    thread = f"t-{code}-{backend}"
                    try:
                        result = asyncio.run(
                            measure(server, thread, args.followers, updates, args.rate, args.mode)
                        )
                    except (httpx.HTTPError, TimeoutError) as error:  # say so, run the rest
                        print(f"{code:<10}{backend:<8} did not finish: {error!r}", flush=True)
                        continue
                    finally:
                        server.kill()
                    print(row(code, backend, result), flush=True)
        finally:
            redis.stop()


if __name__ == "__main__":
    main()
