"""Rendering costs what is shown: one shell result at 100 KB and at 100 MB of output.

Run: ``.venv/bin/python bench/render_scaling.py [--small-kb 100] [--big-mb 100]``.
For each surface (text, terminal, html, markdown) it renders the same shell
result at both sizes and prints the wall time and the peak memory allocated
while rendering (``tracemalloc``, measured in a separate run so tracing does
not skew the time), and the big/small ratio of each. Beside them, the naive
way — the whole output in a Rich ``Panel(Text(...))`` printed to a
``Console(file=StringIO())`` — runs in a child process with a time limit, so a
blow-up is reported instead of hanging the machine. Target: toolview's ratio
≤ 5 on every surface, while the naive one grows with the size. Last, the
secret-redaction throughput in MB/s (from ``bench/redaction.py`` when present).

Not a test: timings vary by machine.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from toolview.contract import Descriptor, RunEnded, RunStarted, ShellProps, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render import markdown, terminal, text
from toolview.render.html import render_page

BENCH = Path(__file__).parent
WIDTH = 100
SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": lambda thread: text.render_thread(thread),
    "terminal": lambda thread: terminal.render_thread(thread, width=WIDTH, color=True),
    "html": lambda thread: render_page(thread),
    "markdown": lambda thread: markdown.render_thread(thread),
}

_NAIVE = (
    """
import io, sys, time, tracemalloc, json
from rich.console import Console
from rich.panel import Panel
from rich.text import Text
size = int(sys.argv[1]); trace = sys.argv[2] == "trace"
line = "2024-06-01T12:00:00Z INFO worker 7 finished job {:>9} in 12 ms, cache hit\\n"
out = "".join(line.format(i) for i in range(size // len(line.format(0)) + 1))[:size]
if trace: tracemalloc.start()
start = time.perf_counter()
console = Console(file=io.StringIO(), width=__WIDTH__, color_system="standard", force_terminal=True)
console.print(Panel(Text(out), title="$ make"))
elapsed = time.perf_counter() - start
peak = tracemalloc.get_traced_memory()[1] if trace else 0
print(json.dumps({"seconds": elapsed, "peak": peak}))
"""
).replace("__WIDTH__", str(WIDTH))


def make_output(size: int) -> str:
    """``size`` characters of log-like lines (about 75 per line)."""
    line = "2024-06-01T12:00:00Z INFO worker 7 finished job {:>9} in 12 ms, cache hit\n"
    count = size // len(line.format(0)) + 1
    return "".join(line.format(i) for i in range(count))[:size]


def make_thread(output: str) -> Thread:
    """One finished shell call whose text and stdout are ``output``."""
    props = ShellProps(command="make", exit_code=0, stdout=output, stderr="", duration_ms=9)
    return Thread.from_observations(
        [
            RunStarted(run_id="r"),
            ToolCall(tool_call_id="c1", tool_name="bash", args={"command": "make"}),
            ToolResult(
                tool_call_id="c1",
                tool_name="bash",
                text=output,
                complete=True,
                is_error=False,
                descriptor=Descriptor(kind="shell", props=props),
            ),
            RunEnded(run_id="r", outcome="completed"),
        ]
    )


def measure(render: Callable[[Thread], str], thread: Thread) -> tuple[float, int, int]:
    """(seconds, peak bytes allocated while rendering, output length)."""
    gc.collect()
    start = time.perf_counter()
    out = render(thread)
    seconds = time.perf_counter() - start
    gc.collect()
    tracemalloc.start()
    render(thread)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak, len(out)


def naive(size: int, timeout: float) -> tuple[float | None, int | None]:
    """The naive Rich panel in a child process: (seconds, peak) or (None, None) on timeout."""
    results: list[dict[str, float]] = []
    for mode in ("time", "trace"):
        try:
            done = subprocess.run(
                [sys.executable, "-c", _NAIVE, str(size), mode],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=True,
            )
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            return None, None
        results.append(json.loads(done.stdout))
    return results[0]["seconds"], int(results[1]["peak"])


def _mb(size: int | None) -> str:
    if size is None:
        return "—"
    return f"{size / 1e3:,.0f} KB" if size < 10_000_000 else f"{size / 1e6:,.0f} MB"


def _s(seconds: float | None, timeout: float) -> str:
    return f"> {timeout:.0f} s" if seconds is None else f"{seconds:.3f} s"


def _ratio(big: float | None, small: float | None) -> str:
    if big is None or not small:
        return "—"
    return f"{big / small:,.1f}×"


def redaction_line() -> str:
    """Secret-redaction throughput, via bench/redaction.py when it exists."""
    path = BENCH / "redaction.py"
    if not path.exists():
        return "redaction throughput: bench/redaction.py not found"
    spec = importlib.util.spec_from_file_location("bench_redaction", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return f"redaction throughput: {module.redaction_throughput_mb_s(20.0):.1f} MB/s (20 MB)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small-kb", type=float, default=100)
    parser.add_argument("--big-mb", type=float, default=100)
    parser.add_argument("--naive-timeout", type=float, default=300)
    args = parser.parse_args()
    small, big = int(args.small_kb * 1000), int(args.big_mb * 1_000_000)
    threads = {small: make_thread(make_output(small)), big: make_thread(make_output(big))}
    header = f"{'surface':<10} {'time small':>11} {'time big':>11} {'ratio':>8}"
    header += f" {'peak small':>11} {'peak big':>11} {'ratio':>8} {'out big':>10}"
    print(f"shell result: {small / 1e3:,.0f} KB vs {big / 1e6:,.0f} MB of output\n")
    print(header)
    print("-" * len(header))
    for name, render in SURFACES.items():
        render(make_thread("warm-up\n"))  # imports, lexers, caches: not what is measured
        t_small, m_small, _ = measure(render, threads[small])
        t_big, m_big, out_big = measure(render, threads[big])
        print(
            f"{name:<10} {_s(t_small, 0):>11} {_s(t_big, 0):>11} {_ratio(t_big, t_small):>8}"
            f" {_mb(m_small):>11} {_mb(m_big):>11} {_ratio(m_big, m_small):>8}"
            f" {out_big / 1e3:>7,.0f} KB"
        )
    del threads
    n_small_t, n_small_m = naive(small, args.naive_timeout)
    n_big_t, n_big_m = naive(big, args.naive_timeout)
    timeout = args.naive_timeout
    print(
        f"{'naive Rich':<10} {_s(n_small_t, timeout):>11} {_s(n_big_t, timeout):>11}"
        f" {_ratio(n_big_t, n_small_t):>8} {_mb(n_small_m):>11} {_mb(n_big_m):>11}"
        f" {_ratio(n_big_m, n_small_m):>8}"
    )
    print()
    print(redaction_line())


if __name__ == "__main__":
    main()
