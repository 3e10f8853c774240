"""Streaming ``toolview show``: peak memory and time to the first call, by thread size.

Run: ``.venv/bin/python bench/show_streaming.py [--sizes 1000,10000,100000] [--big-mb 100]``.

It writes threads of mixed calls (shell, file, diff, json: ~8 KB of JSON Lines
each, the output once as the result's text and once in the descriptor's
props) to a temporary folder, then runs ``toolview show --surface S FILE`` in
a child process per surface and prints, for each: the input and output size,
the time until the first call's bytes reached the pipe (the first call is a
small shell call whose output is a marker), the whole run's wall time, and the
child's peak RSS (``os.wait4``'s ``ru_maxrss``). Threads above 10,000 calls run
only on ``--big-surfaces`` (text and html: the targets; terminal at 100,000
calls takes a quarter of an hour). Last, one call whose result line is
``--big-mb`` MB and renders to a few KB: as text alone, then as a shell
result with the output half in its text and half in ``props.stdout``.

Targets (issue 13): peak RSS ≤ 200 MiB at 100,000 calls on text and html;
the first call on screen in < 1 s whatever the size. Not a test: timings vary
by machine; the memory figures do not.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

MARKER = b"first-call-marker"
SURFACES = ("text", "html", "markdown", "terminal")


def _shell(n: int) -> tuple[str, dict[str, object], str]:
    out = "".join(
        f"2026-06-01T12:00:{n % 60:02d}Z INFO worker {i} finished job {n}\n" for i in range(95)
    )
    return (
        "bash",
        {
            "kind": "shell",
            "props": {"command": f"make job-{n}", "exitCode": 0, "stdout": out, "stderr": ""},
        },
        out,
    )


def _file(n: int) -> tuple[str, dict[str, object], str]:
    body = "".join(
        f"def handler_{n}_{i}(event):\n    return event.get('k{i}')\n\n" for i in range(60)
    )
    return (
        "read",
        {"kind": "file", "props": {"path": f"src/m{n}.py", "content": body, "language": "python"}},
        body,
    )


def _diff(n: int) -> tuple[str, dict[str, object], str]:
    hunks = "".join(
        f"@@ -{i},2 +{i},2 @@\n context {i}\n-old line {n} {i}\n+new line {n} {i}\n"
        for i in range(1, 100, 2)
    )
    diff = f"--- a/src/m{n}.py\n+++ b/src/m{n}.py\n{hunks}"
    return "edit", {"kind": "diff", "props": {"path": f"src/m{n}.py", "diff": diff}}, diff


def _json(n: int) -> tuple[str, dict[str, object], str]:
    value = [
        {"id": n * 100 + i, "name": f"item {i}", "tags": ["a", "b"], "ok": i % 3 == 0}
        for i in range(50)
    ]
    return "query", {"kind": "json", "props": {"value": value}}, json.dumps(value, indent=1)


SHAPES = (_shell, _file, _diff, _json)


def observations(calls: int) -> Iterator[dict[str, object]]:
    """A run of ``calls`` calls, the first a small shell call whose output is the marker."""
    yield {"kind": "run-started", "runId": "r1"}
    for n in range(calls):
        tool, descriptor, text = SHAPES[n % len(SHAPES)](n)
        if n == 0:
            text = MARKER.decode() + "\n"
            descriptor = {
                "kind": "shell",
                "props": {"command": "echo", "exitCode": 0, "stdout": text, "stderr": ""},
            }
        yield {"kind": "tool-call", "toolCallId": f"c{n}", "toolName": tool, "args": {"n": n}}
        yield {
            "kind": "tool-result",
            "toolCallId": f"c{n}",
            "toolName": tool,
            "text": text,
            "complete": True,
            "isError": False,
            "descriptor": descriptor,
        }
    yield {"kind": "run-ended", "runId": "r1", "outcome": "completed"}


def write_thread(path: Path, calls: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for observation in observations(calls):
            out.write(json.dumps(observation) + "\n")


def write_big(path: Path, megabytes: int, *, shell: bool = False) -> None:
    """One call whose result line is ``megabytes`` MB: log lines as its text (no descriptor:
    a text window), or, ``shell``, the output half in the text, half in ``props.stdout``."""
    line = "2026-06-01T12:00:00Z INFO worker 7 finished job 123456 in 12 ms, cache hit\n"
    share = megabytes * 1_000_000 // (2 if shell else 1)
    marker = MARKER.decode() + "\n"  # first and last: a text window shows the head, shell the tail
    text = marker + line * (share // len(line)) + marker
    result: dict[str, object] = {
        "kind": "tool-result",
        "toolCallId": "big",
        "toolName": "bash",
        "text": text,
        "complete": True,
        "isError": False,
    }
    if shell:
        props = {"command": "make", "exitCode": 0, "stdout": text, "stderr": ""}
        result["descriptor"] = {"kind": "shell", "props": props}
    call = {"kind": "tool-call", "toolCallId": "big", "toolName": "bash", "args": {}}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(call) + "\n")
        out.write(json.dumps(result) + "\n")


def measure(path: Path, surface: str) -> dict[str, float]:
    """Run ``show`` on ``path``: seconds to the marker, seconds in all, peak RSS, bytes out."""
    command = [sys.executable, "-m", "toolview", "show", "--surface", surface, str(path)]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    assert child.stdout is not None
    first, seen, tail = float("nan"), 0, b""
    while chunk := child.stdout.read1(1 << 16):
        if first != first and MARKER in tail + chunk:
            first = time.perf_counter() - start
        seen += len(chunk)
        tail = chunk[-len(MARKER) :]
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"{command} failed: {status}")
    return {
        "first": first,
        "total": time.perf_counter() - start,
        "rss": usage.ru_maxrss / 1024,
        "out": seen,
    }


def report(label: str, path: Path, surface: str) -> None:
    got = measure(path, surface)
    print(
        f"| {label} | {surface} | {path.stat().st_size / 1e6:,.1f} MB | {got['out'] / 1e6:,.2f} MB "
        f"| {got['first']:.2f} s | {got['total']:,.1f} s | {got['rss']:,.0f} MiB |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--surfaces", default=",".join(SURFACES))
    parser.add_argument("--big-surfaces", default="text,html")
    parser.add_argument("--big-mb", type=int, default=100)
    args = parser.parse_args()
    print("| input | surface | input size | output | first call | whole run | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for calls in (int(size) for size in args.sizes.split(",") if size):
            path = Path(folder) / f"thread-{calls}.jsonl"
            write_thread(path, calls)
            surfaces = args.surfaces if calls <= 10_000 else args.big_surfaces
            for surface in surfaces.split(","):
                report(f"{calls:,} calls", path, surface)
            path.unlink()
        for shell in (False, True) if args.big_mb else ():
            path = Path(folder) / "big.jsonl"
            write_big(path, args.big_mb, shell=shell)
            what = "shell result (text + props)" if shell else "result (text)"
            for surface in args.surfaces.split(","):
                report(f"one {args.big_mb} MB {what}", path, surface)


if __name__ == "__main__":
    main()
