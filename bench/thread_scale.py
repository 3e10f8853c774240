"""Thread scale: CPU per call and peak memory of every surface beside the peers, 1k and 10k calls.

Run: ``.venv/bin/python bench/thread_scale.py [--quick] [--calls 100000] [--only html,text]``
(the peers come with ``pip install -e '.[bench]'``; a peer not installed is left out).

The same mixed thread (``bench/mixed_thread.py``: shell, file, diff and json
calls of ~8 KB, with errors, ANSI colours and planted fake secrets) is
written once as toolview observations and once as a Claude Code session.
Each row runs in a child process as a user runs it — ``toolview show
--surface S thread.jsonl > out``; ``claude-code-log session.jsonl -o
out.html``; ``claude-code-transcripts json session.jsonl -o dir`` — and
its CPU time (user + sys of the child, from ``os.wait4``: waiting for a busy
core does not count) and peak RSS (``ru_maxrss``) are read when it exits.
Rows take turns; each figure is the median of 3 runs (``--quick``: 1). It
prints CPU seconds at 1k and 10k calls, the marginal CPU per call
``(T10k − T1k) / 9000`` and the peak RSS at 10k, side by side.
``--calls 100000`` instead measures text and html at that size alone (peak
RSS target ≤ 200 MiB). Exits 1 when a toolview target is missed.

Not the same work: toolview redacts secrets, neutralizes terminal controls
and markup, and highlights code on every surface; the peers do none of the
first two (they show every planted secret) and claude-code-transcripts does
not highlight. claude-code-log runs serially (``CLAUDE_CODE_LOG_RENDER_JOBS=1``:
its worker pool would only add CPU and hide memory in other processes).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mixed_thread import write_both  # a sibling script, not a package

BIN = Path(sys.executable).parent
TARGETS_MS = {"text": 1.0, "markdown": 1.0, "html": 1.0, "terminal": 2.5}
RSS_TARGET_MIB = 200
NOTE = (
    "toolview redacts secrets, neutralizes terminal controls and markup, and highlights code;"
    " the peers do not redact or neutralize (every planted secret is in their output)."
)


@dataclass(frozen=True)
class Row:
    """One thing to measure: a name and how to build its command for a size."""

    name: str
    command: Callable[[Path, Path, Path], list[str]]  # (thread, session, out dir) -> argv
    target_ms: float | None = None


def toolview_row(surface: str, exe: list[str]) -> Row:
    """``toolview show --surface S`` reading the observations file, as a user runs it."""
    extra = ["--color", "--width", "100"] if surface == "terminal" else []

    def command(thread: Path, session: Path, out: Path) -> list[str]:
        return [*exe, "show", "--surface", surface, *extra, str(thread)]

    return Row(f"toolview {surface}", command, TARGETS_MS[surface])


def peer_rows() -> list[Row]:
    """The peers that are installed, on the Claude Code session of the same calls."""
    rows = []
    if (BIN / "claude-code-log").exists():
        for fmt in ("html", "md"):
            rows.append(Row(f"claude-code-log {fmt}", _ccl(fmt)))
    if (BIN / "claude-code-transcripts").exists():
        rows.append(Row("claude-code-transcripts html", _cct))
    return rows


def _cct(thread: Path, session: Path, out: Path) -> list[str]:
    return [str(BIN / "claude-code-transcripts"), "json", str(session), "-o", str(out / "cct")]


def _ccl(fmt: str) -> Callable[[Path, Path, Path], list[str]]:
    exe = str(BIN / "claude-code-log")
    return lambda t, s, o: [exe, str(s), "-o", str(o / f"ccl.{fmt}"), "--no-cache"]


@dataclass(frozen=True)
class Usage:
    """What one child used: CPU seconds (user + sys) and peak RSS in MiB."""

    cpu: float
    rss_mib: float


def run_child(argv: list[str], out: Path, home: Path) -> Usage:
    """Run ``argv`` with stdout to a file; its own rusage from ``os.wait4``."""
    env = dict(os.environ, HOME=str(home), CLAUDE_CODE_LOG_RENDER_JOBS="1")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with (out / "stdout").open("wb") as stdout:
        child = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE, env=env)
        assert child.stderr is not None
        err = child.stderr.read()  # small: status lines; read before waiting so it cannot block
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{argv[0]} exited {child.returncode}: {err.decode()[-2000:]}")
    return Usage(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


Results = dict[tuple[str, int], Usage]


def measure(rows: list[Row], sizes: list[int], runs: int, work: Path) -> Results:
    """Median CPU and peak RSS of every row at every size; rows take turns within a run."""
    peers = any(not row.name.startswith("toolview") for row in rows)
    files = {n: write_both(n, work / f"in-{n}", claude_code=peers) for n in sizes}
    samples: dict[tuple[str, int], list[Usage]] = {}
    for _ in range(runs):
        for n in sizes:
            thread, session = files[n]
            for row in rows:
                out = work / "out" / row.name.replace(" ", "-")
                usage = run_child(row.command(thread, session, out), out, work / "home")
                samples.setdefault((row.name, n), []).append(usage)
                line = f"  {row.name} at {n:,}: {usage.cpu:.2f} s, {usage.rss_mib:,.0f} MiB"
                print(line, file=sys.stderr)
    return {key: _median(values) for key, values in samples.items()}


def _median(values: list[Usage]) -> Usage:
    cpu = statistics.median(v.cpu for v in values)
    return Usage(cpu, statistics.median(v.rss_mib for v in values))


def report_scale(rows: list[Row], got: Results, small: int, big: int) -> bool:
    """Print the side-by-side table; whether every toolview target is met."""
    head = f"{'':<30} {f'CPU {small:,}':>10} {f'CPU {big:,}':>11} {'per call':>10}"
    print(f"\n{head} {'target':>8} {f'RSS {big:,}':>10}")
    ok = True
    for row in rows:
        lo, hi = got[row.name, small], got[row.name, big]
        per_call = (hi.cpu - lo.cpu) / (big - small) * 1000
        target = "" if row.target_ms is None else f"≤ {row.target_ms:g} ms"
        met = row.target_ms is None or per_call <= row.target_ms
        ok &= met
        mark = "" if met else "  MISSED"
        line = f"{row.name:<30} {lo.cpu:>8.2f} s {hi.cpu:>9.2f} s {per_call:>7.2f} ms"
        print(f"{line} {target:>8} {hi.rss_mib:>6,.0f} MiB{mark}")
    print(f"\n(medians; per call = (T{big:,} − T{small:,}) / {big - small:,}.) {NOTE}")
    return ok


def report_rss(rows: list[Row], got: Results, n: int) -> bool:
    """Print peak RSS at ``n`` calls; whether every row is within the target."""
    ok = True
    for row in rows:
        usage = got[row.name, n]
        met = usage.rss_mib <= RSS_TARGET_MIB
        ok &= met
        mark = "" if met else "  MISSED"
        line = f"{row.name:<20} {n:,} calls: {usage.cpu:8.1f} s CPU"
        print(f"{line}, peak RSS {usage.rss_mib:6,.0f} MiB (target ≤ {RSS_TARGET_MIB}){mark}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run instead of the median of 3")
    parser.add_argument(
        "--calls", type=int, default=None, help="peak RSS at this size (text, html)"
    )
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--only", default=None, help="comma-separated surfaces, no peers")
    parser.add_argument(
        "--toolview",
        default=str(BIN / "toolview"),
        help="the toolview command (e.g. 'env PYTHONPATH=/tmp/old/src python -m toolview')",
    )
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    surfaces = args.only.split(",") if args.only else list(TARGETS_MS)
    toolview = shlex.split(args.toolview)
    with tempfile.TemporaryDirectory(prefix="thread-scale-") as tmp:
        if args.calls:
            rows = [toolview_row(s, toolview) for s in ("text", "html")]
            ok = report_rss(rows, measure(rows, [args.calls], runs, Path(tmp)), args.calls)
        else:
            rows = [toolview_row(s, toolview) for s in surfaces]
            rows += [] if args.only else peer_rows()
            got = measure(rows, [args.small, args.big], runs, Path(tmp))
            ok = report_scale(rows, got, args.small, args.big)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
