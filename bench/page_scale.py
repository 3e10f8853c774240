"""Page scale: a 5,000-call session opened in Chromium, toolview's pages beside the peers'.

Run: ``.venv/bin/python bench/page_scale.py [--calls 5000] [--runs 3]`` (the peers
come with ``pip install -e '.[test,bench]'``; a peer not installed is left out).

One session (``bench/mixed_thread.py``: shell, file, diff and json calls of
~8 KB, errors, ANSI colours, planted fake secrets), written as toolview
observations and as a Claude Code session of the same calls. Pages:

- toolview live: a real ``toolview serve --load thread.jsonl`` on loopback, its
  thread page (the last 100 calls, ``server.page.window``): ``live (cold)`` is the
  first view (the server renders the window's calls), ``live`` the next ones;
- toolview standalone: ``toolview show --from claude-code --surface html``
  (and with ``--page-size 100`` when ``show`` has that option: its index and page 2);
- claude-code-log's single page; claude-code-transcripts' index and first page.

Each page is opened in the real Chromium (Playwright, a fresh context per
view, files from ``file://``) and, at its ``load`` event, read: the load time
(``PerformanceNavigationTiming.loadEventStart``) and the DOM nodes (every node,
text included, a ``TreeWalker`` over the document). Rows take turns; each figure
is the median of ``--runs``. Printed side by side in one run, with ratios to
claude-code-log's page. Target (issue 15): the live page loads in ≤ 1.5 s with
≤ 20,000 nodes; exits 1 when missed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_both  # a sibling script, not a package

BIN = Path(sys.executable).parent
TOOLVIEW = [sys.executable, "-c", "from toolview.cli import main; main()"]
SERVE_LINE = re.compile(r"serving on (http://\S+?)/?$")
LOAD_TARGET_MS, NODES_TARGET = 1500.0, 20_000
CHROMIUM = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MEASURE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes += 1;
  return { load: nav.loadEventStart, nodes };
}"""


def build_pages(calls: int, work: Path) -> tuple[dict[str, str], subprocess.Popen[str]]:
    """Every page's URL by row name, and the serving ``toolview serve`` (kill it after)."""
    thread, session = write_both(calls, work / "in")
    pages: dict[str, str] = {}
    server, url = serve(thread, work / "log.db")
    pages["toolview live (cold)"] = pages["toolview live"] = f"{url}/threads/{thread.stem}"
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
    return pages, server


def serve(thread: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    """``toolview serve --load thread`` on a free port; its URL once it listens."""
    argv = [*TOOLVIEW, "serve", "--port", "0", "--db", str(db), "--load", str(thread)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        match = SERVE_LINE.search(line.rstrip("\n"))
        if match:
            return process, match.group(1)
    raise SystemExit("toolview serve printed no URL")


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


def measure(pages: dict[str, str], runs: int) -> dict[str, tuple[float, int]]:
    """Median load and nodes per row; rows take turns, the cold live view first each time."""
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in pages}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM)
        for round_ in range(runs):
            for name, url in pages.items():
                if name == "toolview live (cold)" and round_ > 0:
                    continue  # cold once: the server keeps the window's pieces
                got = open_page(browser, url)
                samples[name].append(got)
                print(f"  {name}: {got[0]:,.0f} ms, {got[1]:,} nodes", file=sys.stderr)
        browser.close()
    median: Callable[[list[float]], float] = statistics.median
    return {
        name: (median([s[0] for s in got]), int(median([s[1] for s in got])))
        for name, got in samples.items()
    }


def report(got: dict[str, tuple[float, int]], calls: int) -> bool:
    """The table, the ratios to claude-code-log's page, and whether the live target is met."""
    base = got.get("claude-code-log")
    print(f"\n{calls:,}-call session, Chromium, at the load event (median)\n")
    print(f"{'page':38} {'load ms':>9} {'DOM nodes':>10} {'load vs ccl':>12} {'nodes vs ccl':>13}")
    for name, (load, nodes) in got.items():
        ratio = f"{base[0] / load:.1f}× faster" if base and load else ""
        fewer = f"{base[1] / nodes:.1f}× fewer" if base and nodes else ""
        print(f"{name:38} {load:9,.0f} {nodes:10,} {ratio:>12} {fewer:>13}")
    live = got["toolview live"]
    met = live[0] <= LOAD_TARGET_MS and live[1] <= NODES_TARGET
    target = f"≤ {LOAD_TARGET_MS:,.0f} ms, ≤ {NODES_TARGET:,} nodes"
    print(f"\ntarget, toolview live: {target}: {'met' if met else 'MISSED'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="page-scale-") as name:
        work = Path(name)
        pages, server = build_pages(args.calls, work)
        try:
            got = measure(pages, args.runs)
        finally:
            server.kill()
            server.wait(timeout=30)
    sys.exit(0 if report(got, args.calls) else 1)


if __name__ == "__main__":
    main()
