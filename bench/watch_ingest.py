"""``serve --watch`` at size: catch-up and restart on one big Claude Code session.

Run: ``.venv/bin/python bench/watch_ingest.py [--calls 5000]``

The mixed thread of ``bench/mixed_thread.py`` (shell, file, diff and json
calls of ~8 KB, errors, colours, planted fake secrets), written as a Claude
Code session, is put in a folder a real ``toolview serve --watch`` process
reads. Measured, in one run, side by side:

* the server's catch-up: wall time until the thread holds every
  observation, the server's CPU (user + sys, from /proc) and peak RSS
  (``VmHWM``);
* ``toolview show --json`` on the same file, the same mapping without the
  log (its CPU and peak RSS, from ``os.wait4``): the ratio is what storing
  costs on top of mapping;
* a restart after ``SIGKILL``, with one line appended meanwhile: the wall
  time until that line is in the thread (the read lines are fed through a
  fresh mapper again, outputs dropped) and the server's CPU for it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from toolview.server.ingest.watch.formats import ClaudeCodeLines

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_both  # a sibling script, not a package

BIN = Path(sys.executable).parent


def serve(db: Path, folder: Path) -> tuple[subprocess.Popen[str], str]:
    command = [str(BIN / "toolview"), "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(
        [*command, "--watch", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "serving on" in line:
            return process, line.split("serving on ", 1)[1].strip().rstrip("/")
    raise RuntimeError("the server printed no URL")


def size(base: str, thread: str) -> int:
    while True:
        try:
            listed = httpx.get(f"{base}/api/threads", timeout=60).json()["threads"]
            return next((int(t["lastSeq"]) for t in listed if t["id"] == thread), 0)
        except httpx.TransportError:
            time.sleep(0.05)  # not accepting yet


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def until(base: str, thread: str, count: int) -> float:
    start = time.monotonic()
    while size(base, thread) < count:
        time.sleep(0.05)
    return time.monotonic() - start


def show_json(session: Path, out: Path) -> tuple[float, float]:
    """CPU seconds and peak RSS (MiB) of ``show --json`` on the file."""
    with out.open("wb") as sink:
        child = subprocess.Popen(
            [str(BIN / "toolview"), "show", "--json", str(session)], stdout=sink
        )
        _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def live_count(session: Path) -> int:
    """The observations a live reader makes of the file (no ``finish``: the session may go on)."""
    mapper = ClaudeCodeLines(session, None)
    with session.open("rb") as lines:
        return sum(len(mapper.feed_line(line)) for line in lines if line.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _, session = write_both(args.calls, work / "data")
        folder = session.parent.parent
        megabytes = session.stat().st_size / 1e6
        show_cpu, show_rss = show_json(session, work / "show.jsonl")
        count = live_count(session)
        thread = "claude-" + session.stem
        (work / "empty").mkdir()
        process, base = serve(work / "idle.db", work / "empty")
        size(base, thread)  # serving: what starting costs, to take off the figures below
        idle_cpu, idle_rss = cpu_seconds(process.pid), peak_mib(process.pid)
        process.kill()
        process.wait()
        process, base = serve(work / "log.db", folder)
        wall = until(base, thread, count)
        serve_cpu, serve_rss = cpu_seconds(process.pid), peak_mib(process.pid)
        process.kill()
        process.wait()
        with session.open("ab") as stream:
            line = {
                "type": "user",
                "sessionId": "s",
                "uuid": "u-last",
                "timestamp": "2026-12-02T00:00:00Z",
            }
            line["message"] = {"role": "user", "content": "one more prompt"}
            stream.write(json.dumps(line).encode() + b"\n")
        grown = live_count(session)
        process, base = serve(work / "log.db", folder)
        restart_wall = until(base, thread, grown)
        restart_cpu = cpu_seconds(process.pid)
        process.kill()
        process.wait()
    print(f"{args.calls} calls, {megabytes:.1f} MB session, {count} observations")
    print(f"serve, started idle CPU {idle_cpu:6.2f} s   peak RSS {idle_rss:6.0f} MiB")
    print(f"show --json         CPU {show_cpu:6.2f} s   peak RSS {show_rss:6.0f} MiB")
    print(
        f"serve --watch       CPU {serve_cpu:6.2f} s   peak RSS {serve_rss:6.0f} MiB"
        f"   catch-up wall {wall:.2f} s;  CPU beyond the idle server, to show --json's:"
        f" {(serve_cpu - idle_cpu) / show_cpu:.2f}"
    )
    print(
        f"restart, +1 line    CPU {restart_cpu:6.2f} s   until the line is in: {restart_wall:.2f} s"
    )


if __name__ == "__main__":
    main()
