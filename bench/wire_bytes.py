"""Bytes on the wire per byte of output, and output→frame delay, per follow mode.

A real 3-second command prints 240 KB (8 KB every 100 ms); a producer publishes
its accumulated output every 100 ms to a real server (uvicorn on loopback,
SQLite log); followers read the thread in ``elide`` and ``live`` mode and count
every byte of the SSE stream. Beside them, what an accumulated-snapshot wire
would carry (every partial whole). Then again with a producer whose tail window
keeps only the last 50 KB (the output outgrows it). Run: .venv/bin/python bench/wire_bytes.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import uvicorn

from toolview.contract import ToolCall, ToolResult, encode_observation
from toolview.remote.client import Publisher
from toolview.server.app import create_app
from toolview.wire.log.sqlite import SQLiteLog

COMMAND = (
    "import sys, time\n"
    "for i in range(30):\n"
    "    lines = (f'{i:02d} line {j:04d} ' + 'x' * 50 + '\\n' for j in range(128))\n"
    "    sys.stdout.write(''.join(lines))\n"
    "    sys.stdout.flush(); time.sleep(0.1)\n"
)


@dataclass
class Follow:
    mode: str
    bytes: int = 0
    arrivals: dict[int, float] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)


def follow(url: str, result: Follow) -> None:
    with httpx.stream("GET", f"{url}?mode={result.mode}", timeout=120) as response:
        for line in response.iter_lines():
            result.bytes += len(line.encode()) + 1
            if line.startswith("id:"):
                result.arrivals.setdefault(int(line[3:]), time.monotonic())
            if '"complete":true' in line:
                result.done.set()
                return


def serve(db: Path) -> tuple[uvicorn.Server, str]:
    app = create_app(lambda: SQLiteLog(db))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}"


def run(window: int | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        server, base = serve(Path(tmp) / "log.db")
        thread = "window" if window else "grow"
        publisher = Publisher(f"{base}/threads/{thread}")
        publisher.publish([ToolCall("c1", "shell", {"command": "bench"})])
        follows = [Follow("elide"), Follow("live")]
        url = f"{base}/api/threads/{thread}/follow"
        for f in follows:
            threading.Thread(target=follow, args=(url, f), daemon=True).start()
        time.sleep(0.5)
        produced, snapshot, published = 0, 0, {}
        process = subprocess.Popen([sys.executable, "-c", COMMAND], stdout=subprocess.PIPE)
        assert process.stdout is not None
        text = ""
        while chunk := process.stdout.read1(1 << 20):
            produced += len(chunk)
            text += chunk.decode()
            if window:
                text = text[-window:]
            partial = ToolResult("c1", "shell", text, complete=False, is_error=False)
            snapshot += len(encode_observation(partial))
            stamp = time.monotonic()
            [seq] = publisher.publish([partial])
            published[seq] = stamp
        final = ToolResult("c1", "shell", text, complete=True, is_error=False)
        snapshot += len(encode_observation(final))
        [seq] = publisher.publish([final])
        published[seq] = time.monotonic()
        for f in follows:
            f.done.wait(60)
        server.should_exit = True
        live = follows[1]
        delays = sorted(
            (live.arrivals[s] - t) * 1000 for s, t in published.items() if s in live.arrivals
        )
        return {
            "produced": produced,
            "elide": follows[0].bytes / produced,
            "live": live.bytes / produced,
            "snapshot": snapshot / produced,
            "p50": statistics.median(delays),
            "p95": delays[int(len(delays) * 0.95) - 1] if len(delays) > 1 else delays[0],
            "frames": len(live.arrivals),
        }


def main() -> None:
    print(
        f"{'run':<22}{'output':>9}{'elide':>8}{'live':>8}{'snapshot':>10}"
        f"{'live frames':>13}{'p50 ms':>9}{'p95 ms':>9}"
    )
    for label, window in (("grows to 240 KB", None), ("50 KB tail window", 50_000)):
        r = run(window)
        print(
            f"{label:<22}{r['produced'] / 1000:>7.0f}KB{r['elide']:>8.2f}{r['live']:>8.2f}"
            f"{r['snapshot']:>10.2f}{r['frames']:>13.0f}{r['p50']:>9.1f}{r['p95']:>9.1f}"
        )
    print("(bytes on the wire per byte of output; delay = publish → live frame received)")


if __name__ == "__main__":
    main()
