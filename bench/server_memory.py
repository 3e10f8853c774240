"""Server memory: two 10,000-call threads viewed, the server's resident memory.

Run: ``.venv/bin/python bench/server_memory.py [--calls 10000] [--threads 2]``.

Writes ``--threads`` sessions of ``--calls`` mixed calls (``bench/mixed_thread.py``,
~8 KB of output a call; other seeds, so no two are alike), starts a real
``toolview serve --load`` on a SQLite log with all of them, opens each thread's
page once (an HTTP GET, as the browser's first request), then reads from
``/proc``: the server's resident memory now (``VmRSS``) and at its peak
(``VmHWM``), and its children's (render processes, multiprocessing's tracker). Target (issue 23: 5):
≤ 300 MiB RSS for the server with two 10,000-call threads viewed; exits 1 when
missed. Memory is no timing: one run says it.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_toolview  # a sibling script, not a package

TOOLVIEW = [sys.executable, "-c", "from toolview.cli import main; main()"]
SERVE_LINE = re.compile(r"serving on (http://\S+?)/?$")
TARGET_MIB = 300.0


def status_mib(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of ``pid``, in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields


def children(pid: int) -> list[tuple[str, int]]:
    """The server's child processes: its render processes and multiprocessing's tracker."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        command = Path(f"/proc/{child}/cmdline").read_bytes()
        name = "resource tracker" if b"resource_tracker" in command else "render process"
        found.append((name, int(child)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="server-memory-") as name:
        work = Path(name)
        loads: list[str] = []
        for seed in range(args.threads):
            path = work / f"thread-{seed}.jsonl"
            write_toolview(path, args.calls, seed=13 + seed)
            loads += ["--load", str(path)]
        argv = [*TOOLVIEW, "serve", "--port", "0", "--db", str(work / "log.db"), *loads]
        server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            url = next(m.group(1) for line in server.stdout if (m := SERVE_LINE.search(line)))
            for seed in range(args.threads):
                with urllib.request.urlopen(f"{url}/threads/thread-{seed}", timeout=600) as page:
                    size = len(page.read())
                print(f"viewed thread-{seed}: {size:,} bytes of page", file=sys.stderr)
            own = status_mib(server.pid)
            others = [(name, status_mib(child)) for name, child in children(server.pid)]
        finally:
            server.kill()
            server.wait(timeout=30)
    print(f"\n{args.threads} threads of {args.calls:,} calls viewed, toolview serve (SQLite)\n")
    print(f"{'process':22} {'RSS MiB':>9} {'peak MiB':>9}")
    print(f"{'server':22} {own['VmRSS']:9,.0f} {own['VmHWM']:9,.0f}")
    for name, child in others:
        print(f"{name:22} {child['VmRSS']:9,.0f} {child['VmHWM']:9,.0f}")
    met = own["VmRSS"] <= TARGET_MIB
    print(f"\ntarget, server RSS ≤ {TARGET_MIB:,.0f} MiB: {'met' if met else 'MISSED'}")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
