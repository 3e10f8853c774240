"""The index (``/``) at 10,000 sessions, and ``toolview sessions`` warm on 1,000 files.

Run: ``.venv/bin/python bench/index_scale.py [--sessions 10000] [--files 1000] [--runs 3]
[--before /work/wt/base/src] [--log FILE]`` (``--before``: another checkout's ``src``,
measured in the same run, side by side; ``--log``: keep the sessions' log there, reused
by the next run).

The sessions are made from the real ones in tests/hosts: the real Claude Code
sessions and the real Codex rollouts, read by their hosts' loaders into
observations, each copied round-robin under a fresh thread id
(``claude-…``/``codex-…``) with its times moved a minute apart, and written
straight into a SQLite log (``wire.log.sqlite``) — the log ``serve`` reads.
Then, each on a fresh ``toolview serve`` of that log (a real Chromium,
Playwright, a fresh context per view), viewed twice: ``cold`` (the server's
first listing reads every session's records) and ``warm`` (the next view);
then a ``restarted`` server on the same log (where the index keeps its cards
in the log, ``server.page.index.card_shelf``, it reads no record):

- the index's first view: the page's ``load`` event (server-drawn first page)
  and the moment the script has the whole listing drawn (``data-threads``),
  and the DOM nodes then (every node, a ``TreeWalker``);
- a search from the index's box over every session (``/api/search``), the
  time from Enter to the hits drawn;
- ``toolview sessions --json`` over ``--files`` Claude Code files (the real
  ones repeated under fresh ids), cold (no cache) and warm (the cache of
  summaries), the child's CPU (user + sys, ``os.wait4``) and wall time.

Medians of ``--runs``. Targets (issue 24): the first view ≤ 1 s with ≤ 5,000
nodes at 10,000 sessions; ``sessions`` warm ≤ 1 s on 1,000 files.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
from playwright.sync_api import Browser, sync_playwright

from toolview.contract import Observation
from toolview.hosts import claude_code, codex
from toolview.wire.log.sqlite import SQLiteLog

sys.path.insert(0, str(Path(__file__).parent))
from search_scale import serve

ROOT = Path(__file__).resolve().parents[1]
CLAUDE = ROOT / "tests" / "hosts" / "claude_code" / "real"
CODEX = ROOT / "tests" / "hosts" / "codex" / "real" / "sessions"
CHROMIUM = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
NODES = (
    "() => { const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL); let n = 1;"
    " while (w.nextNode()) n += 1; return n; }"
)
FIRST_VIEW_S, NODES_TARGET, WARM_S = 1.0, 5_000, 1.0


def sources() -> list[tuple[str, list[Observation]]]:
    """The real sessions as (agent prefix, observations)."""
    found: list[tuple[str, list[Observation]]] = []
    for path in sorted(CLAUDE.glob("*.jsonl")):
        found.append(
            (
                "claude",
                [o for o in claude_code.load_observations(path) if isinstance(o, Observation)],
            )
        )
    for path in sorted(CODEX.rglob("rollout-*.jsonl")):
        found.append(
            ("codex", [o for o in codex.load_observations(path) if isinstance(o, Observation)])
        )
    return [(agent, obs) for agent, obs in found if obs]


async def fill(db: Path, count: int) -> None:
    """``count`` sessions in the log at ``db``, round-robin over the real ones."""
    real = sources()
    log = SQLiteLog(db)
    log._db.execute("PRAGMA synchronous=OFF")  # building the input only: not what is measured
    try:
        for n in range(count):
            agent, observations = real[n % len(real)]
            thread = f"{agent}-{n:05d}"
            await log.create_thread(thread)
            shifted = [_moved(o, n) for o in observations]
            await log.append(thread, shifted)
    finally:
        await log.aclose()


def _moved(observation: Observation, n: int) -> Observation:
    """``observation`` with its time moved ``n`` minutes later (the sessions spread over days)."""
    at = observation.at
    if not isinstance(at, str):
        return observation
    stamp = time.mktime(time.strptime(at[:19], "%Y-%m-%dT%H:%M:%S")) + 60 * n
    moved = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(stamp)) + at[19:]
    return msgspec.structs.replace(observation, at=moved)


View = tuple[float, float, int, float]
Figures = tuple[View, View, View]  # a fresh server's first view, its next, a restarted one's


def first_view(browser: Browser, url: str, count: int) -> View:
    """(load s, drawn s, DOM nodes once drawn, search s) of the index in a fresh context."""
    context = browser.new_context()
    try:
        page = context.new_page()
        began = time.perf_counter()
        page.goto(url, wait_until="load", timeout=600_000)
        loaded = time.perf_counter() - began
        page.wait_for_function(
            f"() => document.getElementById('tv-index').dataset.threads === '{count}'",
            timeout=600_000,
        )
        drawn = time.perf_counter() - began
        nodes = int(page.evaluate(NODES))
        searched = float("nan")
        if page.locator("#tv-find-input").count():
            page.locator("#tv-find-input").fill("workspace")
            began = time.perf_counter()
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.getElementById('tv-found').dataset.hits !== undefined",
                timeout=600_000,
            )
            searched = time.perf_counter() - began
        return loaded, drawn, nodes, searched
    finally:
        context.close()


def sessions_cpu(src: Path, home: Path) -> tuple[float, float]:
    """(CPU s, wall s) of ``toolview sessions --json`` over ``home``'s Claude Code files."""
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    argv = [sys.executable, "-c", "from toolview.cli import main; main()", "sessions", "--json"]
    began = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    return usage.ru_utime + usage.ru_stime, wall


def session_files(home: Path, count: int) -> None:
    """``count`` Claude Code files under ``home/.claude/projects``: the real ones, fresh ids."""
    real = sorted(CLAUDE.glob("*.jsonl"))
    for n in range(count):
        source = real[n % len(real)]
        folder = home / ".claude" / "projects" / f"-work-project-{n % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        fresh = f"{n:08d}-0000-4000-8000-000000000000"
        text = source.read_bytes().replace(source.stem.encode(), fresh.encode())
        (folder / f"{fresh}.jsonl").write_bytes(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout's src, side by side")
    parser.add_argument("--log", type=Path, help="the sessions' log: made if missing, else reused")
    args = parser.parse_args()
    trees = {"toolview": ROOT / "src", **({"before": args.before} if args.before else {})}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        began = time.perf_counter()
        log = args.log or work / "made.db"
        if not log.exists():
            asyncio.run(fill(log, args.sessions))
            print(f"{args.sessions:,} sessions written in {time.perf_counter() - began:.1f} s")
        shutil.copy(log, work / "log.db")
        index_rows(trees, work, args)
        session_files(work / "home", args.files)
        sessions_rows(trees, work, args)


def index_rows(trees: dict[str, Path], work: Path, args: argparse.Namespace) -> None:
    print(f"\nindex first view, {args.sessions:,} sessions (median of {args.runs})")
    print(f"{'tree, server':<19} {'load s':>7} {'drawn s':>8} {'nodes':>8} {'search s':>9}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM)
        for name, src in trees.items():
            figures: list[Figures] = []
            for _ in range(args.runs):
                db = work / f"run-{name}.db"
                shutil.copy(work / "log.db", db)
                process, url = serve(src, db)
                try:
                    cold = first_view(browser, url, args.sessions)
                    warm = first_view(browser, url, args.sessions)
                finally:
                    process.kill()
                    process.wait()
                process, url = serve(src, db)  # the same log again: a restarted server
                try:
                    figures.append((cold, warm, first_view(browser, url, args.sessions)))
                finally:
                    process.kill()
                    process.wait()
            for look, which in (("cold", 0), ("warm", 1), ("restarted", 2)):
                views = [f[which] for f in figures]
                load, drawn, nodes, search = (
                    statistics.median(v[i] for v in views) for i in range(4)
                )
                row = f"{name} {look}"
                print(f"{row:<19} {load:>7.2f} {drawn:>8.2f} {int(nodes):>8,} {search:>9.2f}")
        browser.close()


def sessions_rows(trees: dict[str, Path], work: Path, args: argparse.Namespace) -> None:
    print(f"\ntoolview sessions --json, {args.files:,} files (median of {args.runs})")
    print(f"{'tree':<10} {'cold cpu s':>10} {'warm cpu s':>10} {'warm wall s':>11}")
    for name, src in trees.items():
        shutil.rmtree(work / "home" / ".cache", ignore_errors=True)
        cold = sessions_cpu(src, work / "home")  # no cache yet: it is written
        warm = [sessions_cpu(src, work / "home") for _ in range(args.runs)]
        cpu = statistics.median(w[0] for w in warm)
        wall = statistics.median(w[1] for w in warm)
        print(f"{name:<10} {cold[0]:>10.2f} {cpu:>10.2f} {wall:>11.2f}")


if __name__ == "__main__":
    main()
