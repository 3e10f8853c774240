"""Page scale: a 5,000-call session opened in Chromium, toolview's pages beside the peers'.

Run: ``.venv/bin/python bench/page_scale.py [--calls 5000] [--runs 3] [--live-only] [--no-ready]
[--before /work/wt/base/.venv/bin/python]`` (the peers come with ``pip install -e '.[test,bench]'``;
a peer not installed is left out; ``--live-only``: toolview's live page alone; ``--before``:
the cold rows again, taking turns with ours, served by that interpreter — another tree's
toolview on the same log, side by side in one run).

One session (``bench/mixed_thread.py``: shell, file, diff and json calls of
~8 KB, errors, ANSI colours, planted fake secrets), written as toolview
observations and as a Claude Code session of the same calls. Pages:

- toolview live: a real ``toolview serve`` on loopback, its thread page (the
  last 100 calls, ``server.page.window``). ``live (cold)``: a server started on
  the log (the file loaded by an earlier ``serve --load``), the page opened as
  soon as it prints its URL — nobody viewed the thread before; one fresh
  server per run, stopped (SIGTERM) after the view, its CPU (user + sys from
  ``os.wait4``, its render processes included) printed. ``live (cold, once
  ready)``: the same, the page opened once the server says it drew its newest
  threads (``server.page.pieces.ahead``; a server without that line never says it,
  and the row would wait forever: ``--no-ready`` leaves it out).
  ``live (warm)``: the next views on one server that has shown the page once;
- toolview standalone: ``toolview show --from claude-code --surface html``
  (and with ``--page-size 100`` when ``show`` has that option: its index and page 2);
- claude-code-log's single page; claude-code-transcripts' index and first page.

Each page is opened in the real Chromium (Playwright, a fresh context per
view, files from ``file://``) and, at its ``load`` event, read: the load time
(``PerformanceNavigationTiming.loadEventStart``) and the DOM nodes (every node,
text included, a ``TreeWalker`` over the document). Rows take turns; each figure
is the median of ``--runs``. Printed side by side in one run, with ratios to
claude-code-log's page. Targets (issues 15, 23): the live page loads in ≤ 1.5 s
cold and ≤ 0.5 s warm, with ≤ 20,000 nodes; exits 1 when missed.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_both  # a sibling script, not a package

BIN = Path(sys.executable).parent
TOOLVIEW = [sys.executable, "-c", "from toolview.cli import main; main()"]
SERVE_LINE = re.compile(r"serving on (http://\S+?)/?$")
COLD_MS, WARM_MS, NODES_TARGET = 1500.0, 500.0, 20_000
COLD, WARM = "toolview live (cold)", "toolview live (warm)"
READY = "toolview live (cold, once ready)"
READY_LINE = re.compile(r"toolview: ready to show")
CHROMIUM = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MEASURE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes += 1;
  return { load: nav.loadEventStart, nodes };
}"""


@dataclass
class Live:
    """The loaded log and its thread; ``start`` serves it (a fresh server each call)."""

    db: Path
    thread: str
    python: str = sys.executable  # whose toolview serves it (``--before``: another tree's)

    def start(self, ready: bool = False) -> tuple[subprocess.Popen[str], str]:
        """A new ``toolview serve`` on the log, and the thread page's URL once it listens
        (``ready``: once it says it drew its newest threads, ``pieces.ahead``)."""
        process, url = serve(self.db, [], ready, self.python)
        return process, f"{url}/threads/{self.thread}"


def build_pages(calls: int, work: Path, live_only: bool) -> tuple[Live, dict[str, str]]:
    """The live log (loaded once), and every other page's URL by row name."""
    thread, session = write_both(calls, work / "in")
    loader, _ = serve(work / "log.db", ["--load", str(thread)])
    stop(loader)  # the file is in the log: later servers start on it, nobody viewed it
    live = Live(work / "log.db", thread.stem)
    pages: dict[str, str] = {}
    if live_only:
        return live, pages
    show = [*TOOLVIEW, "show", "--from", "claude-code", "--surface", "html", str(session)]
    pages["toolview standalone"] = run_to_file(show, work / "standalone.html")
    helped = subprocess.run([*TOOLVIEW, "show", "--help"], capture_output=True, text=True)
    if "--page-size" in helped.stdout:
        paged = work / "paged"
        paged.mkdir()
        # the index page is --output; the next pages are written beside it (index-2.html…)
        run([*show, "--page-size", "100", "--output", str(paged / "index.html")], work)
        pages["toolview standalone, paged (index)"] = (paged / "index.html").as_uri()
        if (paged / "index-2.html").exists():
            pages["toolview standalone, paged (page 2)"] = (paged / "index-2.html").as_uri()
    if (BIN / "claude-code-log").exists():
        out = work / "ccl.html"
        run([str(BIN / "claude-code-log"), str(session), "-o", str(out), "--no-cache"], work)
        pages["claude-code-log"] = out.as_uri()
    if (BIN / "claude-code-transcripts").exists():
        out = work / "cct"
        run([str(BIN / "claude-code-transcripts"), "json", str(session), "-o", str(out)], work)
        pages["claude-code-transcripts (index)"] = (out / "index.html").as_uri()
        page_one = sorted(out.glob("page-*.html"))
        if page_one:
            pages["claude-code-transcripts (page 1)"] = page_one[0].as_uri()
    return live, pages


def serve(
    db: Path, extra: list[str], ready: bool = False, python: str = sys.executable
) -> tuple[subprocess.Popen[str], str]:
    """``toolview serve`` on ``db`` on a free port; its URL once it listens (``ready``: and
    once it says it is ready to show its newest threads)."""
    argv = [python, *TOOLVIEW[1:], "serve", "--port", "0", "--db", str(db), *extra]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    url = None
    for line in process.stdout:
        match = SERVE_LINE.search(line.rstrip("\n"))
        url = match.group(1) if match else url
        if url and (not ready or READY_LINE.search(line)):
            return process, url
    raise SystemExit("toolview serve printed no URL" if url is None else "nor ready")


def stop(process: subprocess.Popen[str]) -> float:
    """Stop a server (SIGTERM: it shuts down, its render processes with it); its CPU in s."""
    process.send_signal(signal.SIGTERM)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here
    return usage.ru_utime + usage.ru_stime


def run(argv: list[str], work: Path) -> None:
    env = {"HOME": str(work / "home"), "CLAUDE_CODE_LOG_RENDER_JOBS": "1", "PATH": "/usr/bin"}
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{argv[:3]} exited {done.returncode}: {done.stderr.decode()[-2000:]}")


def run_to_file(argv: list[str], out: Path) -> str:
    with out.open("wb") as stdout:
        subprocess.run(argv, stdout=stdout, check=True)
    return out.as_uri()


def open_page(browser: Browser, url: str) -> tuple[float, int]:
    """Load time (ms) and DOM nodes of ``url`` at its ``load`` event, in a fresh context."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url, wait_until="load", timeout=600_000)
        got = page.evaluate(MEASURE)
        return float(got["load"]), int(got["nodes"])
    finally:
        context.close()


samples_cpu: dict[str, list[float]] = {}  # each cold row's server CPU, by row


def cold_view(browser: Browser, live: Live, ready: bool, name: str) -> tuple[float, int]:
    """A fresh server, its page opened at once (or once ready); the server's CPU after it stops."""
    server, url = live.start(ready)
    try:
        got = open_page(browser, url)
    finally:
        cpu = stop(server)
    print(f"  {name}: {got[0]:,.0f} ms, {got[1]:,} nodes; server CPU {cpu:.2f} s", file=sys.stderr)
    samples_cpu.setdefault(name, []).append(cpu)
    return got


def cold_rows(live: Live, before: str | None, ready: bool) -> dict[str, tuple[Live, bool]]:
    """The cold rows: ours, and with ``before`` the same served by that interpreter."""
    rows = {COLD: (live, False), READY: (live, True)}
    if before is not None:
        old = Live(live.db, live.thread, before)
        rows |= {f"{COLD} before": (old, False), f"{READY} before": (old, True)}
    return {name: row for name, row in rows.items() if ready or not row[1]}


def measure(
    live: Live, pages: dict[str, str], runs: int, ready: bool, before: str | None = None
) -> dict[str, tuple[float, int]]:
    """Median load and nodes per row; rows take turns, the cold live views first each time."""
    colds = cold_rows(live, before, ready)
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in colds}
    samples[WARM] = []
    samples.update({name: [] for name in pages})
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM)
        warm_server, warm_url = live.start()
        try:
            open_page(browser, warm_url)  # its cold view: the warm rows are the next ones
            for _ in range(runs):
                for name, (served, once_ready) in colds.items():
                    samples[name].append(cold_view(browser, served, once_ready, name))
                for name, url in {WARM: warm_url, **pages}.items():
                    got = open_page(browser, url)
                    samples[name].append(got)
                    print(f"  {name}: {got[0]:,.0f} ms, {got[1]:,} nodes", file=sys.stderr)
        finally:
            stop(warm_server)
            browser.close()
    median: Callable[[list[float]], float] = statistics.median
    return {
        name: (median([s[0] for s in got]), int(median([s[1] for s in got])))
        for name, got in samples.items()
    }


def report(got: dict[str, tuple[float, int]], calls: int) -> bool:
    """The table, the ratios to claude-code-log's page, and whether the live targets are met."""
    base = got.get("claude-code-log")
    print(f"\n{calls:,}-call session, Chromium, at the load event (median)\n")
    print(f"{'page':45} {'load ms':>9} {'DOM nodes':>10} {'load vs ccl':>12} {'nodes vs ccl':>13}")
    for name, (load, nodes) in got.items():
        ratio = f"{base[0] / load:.1f}× faster" if base and load else ""
        fewer = f"{base[1] / nodes:.1f}× fewer" if base and nodes else ""
        print(f"{name:45} {load:9,.0f} {nodes:10,} {ratio:>12} {fewer:>13}")
    for name, cpus in samples_cpu.items():
        print(f"server CPU, {name}: {statistics.median(cpus):.2f} s (median)")
    met = True
    for name, bound in ((COLD, COLD_MS), (READY, COLD_MS), (WARM, WARM_MS)):
        if name not in got:
            continue
        load, nodes = got[name]
        ok = load <= bound and nodes <= NODES_TARGET
        met = met and ok
        target = f"≤ {bound:,.0f} ms, ≤ {NODES_TARGET:,} nodes"
        print(f"target, {name}: {target}: {'met' if ok else 'MISSED'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--live-only", action="store_true", help="toolview's live page alone")
    parser.add_argument("--no-ready", action="store_true", help="no 'cold, once ready' row")
    parser.add_argument("--before", help="another tree's python: its cold rows beside ours")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="page-scale-") as name:
        live, pages = build_pages(args.calls, Path(name), args.live_only)
        got = measure(live, pages, args.runs, not args.no_ready, args.before)
    sys.exit(0 if report(got, args.calls) else 1)


if __name__ == "__main__":
    main()
