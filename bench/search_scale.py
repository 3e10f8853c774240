"""Thread search at scale, and the server beside hostile searches: one ``src`` against another.

Run: ``.venv/bin/python bench/search_scale.py [--calls 5000] [--src DIR]`` (``--src``: the
``src`` folder to serve from, e.g. an older checkout's, to compare; default this one's).

A real ``toolview serve`` (SQLite) gets a ``bench/mixed_thread.py`` thread of
``--calls`` calls (~8 KB of output each, posted in batches). Printed, each a
median of ``--runs`` where it repeats:

- search latency on the big thread: the first search (texts redacted and,
  in a search process, sent to it), then a plain word and a regex, warm;
- the first cross-thread search (``/api/search``) right after a second big
  thread is posted (the index caught up with what the load left unindexed);
- a trivial request (``GET /api/threads``) alone, and beside a hostile search
  (``(?:a{10000000})``: compiled on the old server's loop, 3.6-5.9 s);
- a POST of one observation alone, and while 12 slow searches run, each from
  its own loopback address (``(a|aa)*$`` over a run of ``a``: a whole budget).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from mixed_thread import write_toolview  # noqa: E402

SERVE_LINE = re.compile(r"serving on (http://\S+?)/?$")
NDJSON = {"content-type": "application/x-ndjson"}


def serve(src: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    """``toolview serve`` importing toolview from ``src``; its process and URL."""
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve"]
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen(
        [*command, "--port", "0", "--db", str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("toolview serve exited")
        if found := SERVE_LINE.search(line.rstrip("\n")):
            return process, found.group(1)
    raise AssertionError("unreachable")


def post(url: str, thread: str, lines: list[str]) -> None:
    httpx.post(f"{url}/api/threads", json={"id": thread}, timeout=60).raise_for_status()
    for start in range(0, len(lines), 2000):
        body = "\n".join(lines[start : start + 2000])
        answer = httpx.post(
            f"{url}/api/threads/{thread}/observations", content=body, headers=NDJSON, timeout=600
        )
        answer.raise_for_status()


def timed(call: object) -> float:
    began = time.perf_counter()
    call()  # type: ignore[operator]
    return time.perf_counter() - began


def search(url: str, thread: str, query: str, regex: str, address: str = "127.0.0.1") -> None:
    transport = httpx.HTTPTransport(local_address=address)
    with (
        httpx.Client(transport=transport, timeout=600) as http,
        contextlib.suppress(httpx.HTTPError),
    ):
        http.get(f"{url}/api/threads/{thread}/search", params={"q": query, "regex": regex})


def beside(busy: list[threading.Thread], small: object, *, first_only: bool = False) -> float:
    """The slowest of ``small`` calls made while ``busy`` threads run (or the first one)."""
    for thread in busy:
        thread.start()
    times = [timed(small)]
    while not first_only and any(thread.is_alive() for thread in busy):
        times.append(timed(small))
    for thread in busy:
        thread.join()
    return max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, default=HERE.parent / "src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        thread = Path(folder) / "thread.jsonl"
        write_toolview(thread, args.calls)
        process, url = serve(args.src, Path(folder) / "log.db")
        try:
            run(url, thread.read_text().splitlines(), args.runs)
        finally:
            process.kill()
            process.wait()


def _searching(url: str, thread: str, query: str, regex: str) -> Callable[[], None]:
    return lambda: search(url, thread, query, regex)


def run(url: str, lines: list[str], runs: int) -> None:
    """Post the threads, then print each figure."""
    print(f"posting {len(lines)} records: {timed(lambda: post(url, 'big', lines)):.2f} s")
    run_text: dict[str, object] = {"kind": "tool-result", "toolCallId": "r", "toolName": "shell"}
    run_text |= {"text": "a" * 5000 + "!", "complete": True, "isError": False}
    post(url, "small", [json.dumps(run_text)])
    first = timed(_searching(url, "big", "error", "0"))
    print(f"first search, {len(lines)} records: {first:.3f} s")
    print(f"posting them again: {timed(lambda: post(url, 'big2', lines)):.2f} s")
    across = lambda: httpx.get(f"{url}/api/search", params={"q": "error"}, timeout=600)  # noqa: E731
    print(f"first cross-thread search after posting them again: {timed(across):.3f} s")
    for query, regex in (("error", "0"), (r"def \w+\(", "1")):
        took = statistics.median(timed(_searching(url, "big", query, regex)) for _ in range(runs))
        print(f"warm search {query!r}: {took * 1000:.0f} ms")
    trivial = lambda: httpx.get(f"{url}/api/threads", timeout=600)  # noqa: E731
    alone = statistics.median(timed(trivial) for _ in range(runs))
    print(f"trivial alone: {alone * 1000:.1f} ms (median of {runs})")
    hostile = threading.Thread(target=search, args=(url, "small", "(?:a{10000000})", "1"))
    print(f"trivial beside (?:a{{10000000}}): {beside([hostile], trivial) * 1000:.0f} ms (slowest)")
    line = json.dumps({"kind": "message", "role": "user", "text": "one more"})
    target = f"{url}/api/threads/small/observations"
    one = lambda: httpx.post(target, content=line, headers=NDJSON, timeout=600)  # noqa: E731
    alone = statistics.median(timed(one) for _ in range(runs))
    print(f"POST alone: {alone * 1000:.1f} ms (median of {runs})")
    slow = [
        threading.Thread(target=search, args=(url, "small", "(a|aa)*$", "1", f"127.0.0.{n}"))
        for n in range(2, 14)
    ]
    print(
        f"POST beside 12 searches: {beside(slow, one, first_only=True) * 1000:.0f} ms (the first)"
    )


if __name__ == "__main__":
    main()
