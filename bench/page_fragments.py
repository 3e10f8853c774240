"""The server's page, fragments and summary of a big thread: what they cost, and whom they hold up.

For a thread of mixed shell/file/diff/json calls (~5 KB each) at each size, side by side:

- summary: ``render.summary.thread_summary`` (a view per call: what the summary
  fragment ran before) against the projection's tally (``server.page.tally``);
- page: ``render_thread_html`` in one thread (what a page view ran before, in a
  worker thread) against ``server.page.pieces.markup`` cold (rendered in the worker
  processes) and warm (every piece cached);
- a real ``toolview serve`` (SQLite log): the median latency of a trivial
  request (``/static/fragments.css``) and of the same thread's summary, idle
  and while a cold view of the page is in flight, as ratios (target ≤ 3×), and
  the CPU the server's own process spent on that view (the rest is in its
  render processes).

``--records N`` instead prints the log records read to serve every call
fragment of a growing N-call thread: a whole replay per fragment (before
projections) against the projection. Times vary by machine; ratios are
measured side by side in one run.

    python bench/page_fragments.py                 # 1,000 and 10,000 calls
    python bench/page_fragments.py 300 2000        # other sizes
    python bench/page_fragments.py --records 2000  # records read per fragment
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import httpx

from toolview.contract import Descriptor, Observation, ToolCall, ToolResult, encode_observation
from toolview.contract.thread import Thread
from toolview.render.html import render_call_html, render_thread_html
from toolview.render.summary import thread_summary
from toolview.server.offload import in_process as in_process_pool
from toolview.server.page.pieces.cache import PieceCache
from toolview.server.page.pieces.jobs import render_jobs
from toolview.server.page.pieces.markup import thread_markup
from toolview.server.page.projection import Projections
from toolview.server.page.tally import Tally
from toolview.wire.log import Replay
from toolview.wire.log.sqlite import SQLiteLog

REPO = Path(__file__).resolve().parents[1]
CODE = "\n".join(f"def f{i}(x):\n    return x * {i}  # line {i}" for i in range(100))


def mixed_call(n: int) -> list[Observation]:
    """A shell, file, diff or json call of a few KB."""
    call, kind = f"c{n}", n % 4
    if kind == 0:
        out = "\n".join(f"line {j} of the output of call {n}" for j in range(160))
        props: dict[str, object] = {"command": "ls", "exitCode": 0, "stdout": out, "stderr": ""}
        text, descriptor = out, Descriptor("shell", props)
    elif kind == 1:
        text, descriptor = CODE, Descriptor("file", {"path": "f.py", "content": CODE})
    elif kind == 2:
        lines = "\n".join(f"-old line {j}\n+new line {j}" for j in range(100))
        text = "--- a/x\n+++ b/x\n@@ -1,100 +1,100 @@\n" + lines
        descriptor = Descriptor("diff", {"diff": text, "path": "x"})
    else:
        value = [{"id": j, "name": f"item {j}", "tags": ["a", "b"]} for j in range(60)]
        text, descriptor = str(value), Descriptor("json", {"value": value})
    return [
        ToolCall(call, "tool", {"n": n}),
        ToolResult(call, "tool", text, True, False, descriptor),
    ]


def observations(calls: int) -> list[Observation]:
    return [o for n in range(calls) for o in mixed_call(n)]


def cpu() -> float:
    return time.process_time()


async def in_process(calls: int, folder: Path) -> None:
    """Summary and page, before and now, in this process."""
    items = observations(calls)
    thread = Thread.from_observations(items)
    start = cpu()
    thread_summary(thread)
    walk = cpu() - start
    start, tally, folded = cpu(), Tally(), Thread()
    for item in items:
        before = len(folded.entries)
        folded.add(item)
        tally.observe(folded, item, before)
    kept = cpu() - start
    start = time.perf_counter()
    tally.summary()
    read = time.perf_counter() - start
    print(
        f"  summary: a view per call {walk:.3f} s CPU a read; the tally {read * 1e6:.0f} µs a read"
    )
    print(
        f"           after {kept:.3f} s CPU folding it in "
        f"({kept / calls * 1e6:.0f} µs per call, once)"
    )
    start = cpu()
    old = render_thread_html(thread)
    single = cpu() - start
    log = SQLiteLog(folder / f"page{calls}.db")
    try:
        await log.create_thread("t")
        await log.append("t", items)
        projections, cache = Projections(log), PieceCache()
        await projections.current("t")
        await in_process_pool(partial(render_jobs, []))  # the pool started: not timed
        views = []
        for _ in range(2):
            start, rendering = cpu(), renderers_cpu()
            drawn = await thread_markup(projections, cache, "t")
            views.append((cpu() - start, renderers_cpu() - rendering))
        assert drawn.html == old
    finally:
        await log.aclose()
    (here, away), (warm, _) = views
    print(f"  page: in one thread {single:.2f} s CPU; from pieces, cold: {away:.2f} s CPU in the")
    print(
        f"        render processes + {here:.2f} s here; warm: {warm:.2f} s "
        f"({len(old) / 1e6:.0f} MB)"
    )


def get(port: int, path: str) -> float:
    """One GET on a fresh connection, acknowledged at once (no delayed-ACK wait)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        start = time.perf_counter()
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        sock.sendall(head.encode())
        while sock.recv(1 << 16):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        return time.perf_counter() - start


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a live process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu(pid: int) -> float:
    """CPU seconds of a process's live children (a server's render processes)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(process_cpu(int(child)) for child in children)


def peak_mib(pid: int) -> float:
    """A live process's peak resident memory (VmHWM), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def renderers_cpu() -> float:
    """CPU seconds of this process's render processes so far."""
    return children_cpu(os.getpid())


PATHS = ("/static/fragments.css", "/threads/t/summary")


def served(calls: int, folder: Path) -> None:
    """Trivial requests, idle and while a cold page view is in flight, on a real server."""
    sys.path.insert(0, str(REPO / "tests" / "wire"))
    from toolview_servers import ToolviewServer

    server = ToolviewServer.start(["--port", "0", "--db", str(folder / f"served{calls}.db")])
    try:
        with httpx.Client(base_url=server.url, timeout=3600) as client:
            items = observations(calls)
            for thread in ("t", "u"):  # the same calls twice: each viewed cold once
                client.post("/api/threads", json={"id": thread}).raise_for_status()
                for start in range(0, len(items), 2000):
                    body = b"\n".join(map(encode_observation, items[start : start + 2000]))
                    headers = {"content-type": "application/x-ndjson"}
                    client.post(
                        f"/api/threads/{thread}/observations", content=body, headers=headers
                    )
                client.get(f"/threads/{thread}/summary").raise_for_status()  # projected
            pid = server.process.pid
            alone = [time.perf_counter(), process_cpu(pid), children_cpu(pid)]
            client.get("/threads/u").raise_for_status()
            now = [time.perf_counter(), process_cpu(pid), children_cpu(pid)]
            alone = [after - before for after, before in zip(now, alone, strict=True)]
        idle = {path: [get(server.port, path) for _ in range(50)] for path in PATHS}
        during = while_viewed(server.port, "/threads/t")
        warm = time.perf_counter()
        httpx.get(f"{server.url}/threads/t", timeout=3600).raise_for_status()
        warm = time.perf_counter() - warm
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        peaks = [peak_mib(pid), max((peak_mib(int(child)) for child in children), default=0.0)]
    finally:
        server.kill()
    print(
        f"  served page: cold {alone[0]:6.2f} s: {alone[1]:.2f} s CPU in the server's loop "
        f"process, {alone[2]:.2f} s in its render processes; warm {warm:5.2f} s"
    )
    print(f"  peak RSS: server {peaks[0]:.0f} MiB, largest render process {peaks[1]:.0f} MiB")
    for path in PATHS:
        calm, busy = statistics.median(idle[path]), statistics.median(during[path])
        print(
            f"  {path:22} idle {calm * 1e3:6.2f} ms, during a cold view {busy * 1e3:6.2f} ms "
            f"(n={len(during[path])}): {busy / calm:4.1f}× (target ≤ 3×)"
        )


def while_viewed(port: int, page: str) -> dict[str, list[float]]:
    """The latency of each of ``PATHS``, sent every 20 ms while ``page`` is being drawn."""
    sent, answered = threading.Event(), threading.Event()

    def view_page() -> None:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            head = f"GET {page} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
            sock.sendall(head.encode())
            sent.set()
            sock.recv(1)
            answered.set()
            while sock.recv(1 << 16):
                pass

    viewer = threading.Thread(target=view_page)
    viewer.start()
    sent.wait()
    during: dict[str, list[float]] = {path: [] for path in PATHS}
    while not answered.wait(0.02):
        for path in PATHS:
            during[path].append(get(port, path))
    viewer.join()
    return during


async def records(calls: int, folder: Path) -> None:
    """Records read to serve each call's fragment of a growing thread, before and now."""
    log = CountingLog(folder / "log.db")
    projections = Projections(log)
    await log.create_thread("t")
    reads = {"before": 0, "now": 0}
    try:
        for n in range(calls):
            call = f"c{n}"
            await log.append("t", [ToolCall(call, "shell", {"n": n}), *_result(call, n)])
            for name in reads:
                count = log.records_read
                if name == "before":
                    thread, replay = Thread(), Replay(log, "t", 0)
                    while batch := await replay.next_batch(1000):
                        for item in batch:
                            thread.add(item.observation)
                else:
                    thread = (await projections.current("t")).thread
                entry = thread.call(call)
                assert entry is not None
                render_call_html(entry, thread)
                reads[name] += log.records_read - count
    finally:
        await log.aclose()
    print(f"thread of {calls:,} calls ({3 * calls:,} records), one fragment per call:")
    for name, read in reads.items():
        print(f"  {name:6}  {read:>12,} records read")


def _result(call: str, n: int) -> list[Observation]:
    partial = ToolResult(call, "shell", f"line {n}\n", complete=False, is_error=False)
    return [partial, ToolResult(call, "shell", f"line {n}\ndone\n", complete=True, is_error=False)]


class CountingLog(SQLiteLog):
    """The real SQLite log, counting the records its reads return."""

    records_read = 0

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        got = await super().read(thread_id, after, upto=upto, limit=limit)
        self.records_read += len(got)
        return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--records", type=int, metavar="N", help="records read per fragment")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.records:
            asyncio.run(records(args.records, Path(folder)))
            return
        for calls in args.sizes:
            print(f"{calls:,} mixed calls:")
            asyncio.run(in_process(calls, Path(folder)))
            served(calls, Path(folder))


if __name__ == "__main__":
    main()
