"""Peak memory and CPU of ``toolview sync --once`` on one large Claude Code session.

Run: ``.venv/bin/python bench/sync_memory.py [--mb 100] [--runs 3]``. Writes a
session of Bash calls each printing ``--out-kb`` KiB (a fake home's
``.claude/projects``), starts ``toolview serve --db`` on loopback, then runs
``toolview sync --once --idle 0`` into a fresh state file and server thread
``--runs`` times, each in a child process: its peak RSS (``ru_maxrss`` from
``os.wait4``) and CPU (user + system), medians, next to the file's size. The
target (issue 25: "bounded memory on a huge file"): the peak does not grow
with the file. ``--mb`` twice with different sizes shows it.

Not a test: timings vary by machine. The temporary folder is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

SESSION = "b16b16b1-0000-4000-8000-00000000b16b"


def record(kind: str, second: int, message: dict[str, object]) -> bytes:
    stamp = f"2026-12-01T{10 + second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.000Z"
    body = {"type": kind, "sessionId": SESSION, "cwd": "/w", "uuid": f"u{kind}{second}"}
    return json.dumps({**body, "timestamp": stamp, "message": message}).encode() + b"\n"


def write_session(path: Path, mb: int, out_kb: int) -> int:
    """The session: calls until the file holds ``mb`` MB; returns the calls written."""
    path.parent.mkdir(parents=True)
    chunk = ("x" * 99 + "\n") * (out_kb * 1024 // 100)
    calls = 0
    with path.open("wb") as stream:
        stream.write(record("user", 0, {"role": "user", "content": "big"}))
        while stream.tell() < mb * 1_000_000:
            call = f"toolu_{calls:08d}"
            use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "cat"}}
            stream.write(
                record("assistant", 2 * calls + 1, {"role": "assistant", "content": [use]})
            )
            result = {"type": "tool_result", "tool_use_id": call, "content": chunk}
            stream.write(record("user", 2 * calls + 2, {"role": "user", "content": [result]}))
            calls += 1
    return calls


def run_sync(home: Path, url: str, state: Path) -> tuple[float, float]:
    """One ``sync --once`` in a child: (peak RSS MiB, CPU s)."""
    env = {**os.environ, "HOME": str(home)}
    command = [sys.executable, "-m", "toolview", "sync", "--to", url, "--once", "--idle", "0"]
    child = subprocess.Popen(
        [*command, "--state", str(state), "--machine", "bench"], env=env, stderr=subprocess.DEVNULL
    )
    _pid, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "sync failed"
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--out-kb", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        home = root / "home"
        path = home / ".claude" / "projects" / "-w" / f"{SESSION}.jsonl"
        calls = write_session(path, args.mb, args.out_kb)
        serve = [sys.executable, "-m", "toolview", "serve", "--port", "0", "--db"]
        server = subprocess.Popen([*serve, str(root / "log.db")], stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        url = ""
        while not url:
            found = re.search(r"serving on (http://\S+?)/?$", server.stdout.readline().strip())
            url = found.group(1) if found else ""
        peaks, cpus = [], []
        try:
            for run in range(args.runs):
                peak, cpu = run_sync(home, url, root / f"state-{run}.json")
                peaks.append(peak)
                cpus.append(cpu)
            threads = httpx.get(f"{url}/api/threads").json()["threads"]
        finally:
            server.kill()
        size = path.stat().st_size / 2**20
        print(
            f"session {size:.0f} MiB, {calls} calls of {args.out_kb} KiB output, {args.runs} runs"
        )
        print(f"sync --once peak RSS: median {statistics.median(peaks):.0f} MiB {peaks}")
        print(f"sync --once CPU: median {statistics.median(cpus):.2f} s")
        print(f"the server's thread: {threads[0]['calls']} calls")


if __name__ == "__main__":
    main()
