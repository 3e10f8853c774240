"""Peak memory and throughput of the command runner on a very large output.

Run: ``.venv/bin/python bench/host_memory.py [--size 1G]``. Writes a file of
``--size`` bytes (100-byte lines) into a temporary folder once, then:

* runs ``cat FILE`` through ``CommandRunner`` in a child process and reports
  that process's peak RSS (VmHWM) next to the output size — the target is
  under 100 MB whatever the size — and its throughput;
* times ``cat FILE > /dev/null``, ``cat FILE | cat > /dev/null`` and a copy
  of the file (what spilling the full output costs) on the same bytes.

Then, one huge result (issue 23, target 4: peak RSS <= 100 MiB), with
``--line-mb`` (default 100; 0 skips it): observations whose second line is one
tool result holding a ``--line-mb`` MB output (text only; and a shell result,
half of it in the text and half in ``props.stdout``), read in child processes
side by side: ``toolview show --surface text|html FILE`` as it is (``--before
PYTHON``: also that checkout's, e.g. /work/wt/base/.venv/bin/python; show reads
a line over 4 MiB in pieces since issue 23's i23-long; ``--only-line``: only
this part), and the same file read in 1 MiB pieces through
``hosts.long_strings.window_strings`` (each string past 4 MiB kept as its head
and tail, the cut recorded as the descriptor's truncation), decoded and drawn
by the same surface. Peak RSS is the child's ``ru_maxrss`` from ``os.wait4``.

Not a test: timings vary by machine. The temporary folder is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

_LINE = b"x" * 99 + b"\n"
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}

_CHILD = """
import json, sys, time
from pathlib import Path
from toolview.hosts.command import CommandRunner

def peak_rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1

baseline = peak_rss_kb()
counts = {"partials": 0}
def observe(observation):
    if getattr(observation, "complete", True) is False:
        counts["partials"] += 1

runner = CommandRunner(["cat", sys.argv[1]], on_observation=observe, spill_dir=sys.argv[2])
started = time.perf_counter()
summary = runner.run()
elapsed = time.perf_counter() - started
truncated = summary.result.descriptor.truncated
print(json.dumps({
    "elapsed": elapsed,
    "baseline_kb": baseline,
    "peak_kb": peak_rss_kb(),
    "partials": counts["partials"],
    "shown": truncated.shown,
    "total": truncated.total,
    "unit": truncated.unit,
    "spill_bytes": Path(summary.spill_path).stat().st_size,
}))
"""


_WINDOWED = """
import sys
import msgspec
from toolview.contract import Descriptor, decode_observation
from toolview.contract.thread import Thread
from toolview.hosts.long_strings import window_strings

def pieces(stream, carry):
    # the pieces of one line, read 1 MiB at a time; carry[0]: what follows it
    data = carry[0]
    while True:
        newline = data.find(b"\\n")
        if newline >= 0:
            carry[0] = data[newline + 1 :]
            yield data[:newline]
            return
        if data:
            yield data
        data = stream.read(1 << 20)
        if not data:
            carry[0] = None
            return

thread = Thread()
with open(sys.argv[2], "rb") as stream:
    carry = [b""]
    while carry[0] is not None:
        line, cuts = window_strings(pieces(stream, carry))
        if not line.strip():
            continue
        observation = decode_observation(line)
        descriptor = getattr(observation, "descriptor", None)
        if cuts:  # the cut is data: the descriptor says it (text only: one made for it)
            known = isinstance(descriptor, Descriptor)
            shape = (descriptor.kind, descriptor.props) if known else ("text", {})
            cut = Descriptor(*shape, max(cuts, key=lambda truncated: truncated.total))
            observation = msgspec.structs.replace(observation, descriptor=cut)
        del line
        thread.add(observation, None)
if sys.argv[1] == "html":
    from toolview.render.html import render_thread_html as render
else:
    from toolview.render.text import render_thread as render
sys.stdout.write(render(thread))
"""


def huge_result(path: Path, mb: int, shell: bool) -> None:
    """Observations: a call, then its result holding ``mb`` MB of 100-byte lines."""
    half = mb * 1024**2 // (2 if shell else 1)
    call = {"kind": "tool-call", "toolCallId": "c1", "toolName": "bash", "args": {}}
    head = b'{"kind":"tool-result","toolCallId":"c1","toolName":"bash","complete":true,'
    with path.open("wb") as out:
        out.write(json.dumps(call).encode() + b"\n" + head + b'"isError":false,"text":"')
        _escaped_lines(out, half)
        if shell:
            out.write(b'","descriptor":{"kind":"shell","props":{"command":"big","exitCode":0,')
            out.write(b'"stderr":"","stdout":"')
            _escaped_lines(out, half)
            out.write(b'"}}}\n')
        else:
            out.write(b'"}\n')


def _escaped_lines(out: BinaryIO, size: int) -> None:
    """About ``size`` bytes of 100-byte lines, JSON-escaped, written 1 MB at a time.

    Never built whole: a child inherits its parent's peak RSS (``ru_maxrss``
    survives fork and exec), so the parent must stay small.
    """
    block = (b"x" * 99 + b"\\n") * 10_000
    for _ in range(size // len(block)):
        out.write(block)


def peak_mib(argv: list[str]) -> float:
    """The child's peak RSS (``ru_maxrss``, KiB on Linux), its output discarded."""
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} failed")
    return usage.ru_maxrss / 1024


def huge_results(folder: Path, mb: int, before: str | None) -> None:
    """Peak RSS of show as it is (and as ``before``'s interpreter has it) and through the
    windowed reader, side by side."""
    script = Path(sys.executable).parent / "toolview"
    old = Path(before).parent / "toolview" if before else None
    print(f"\none {mb} MB result: peak RSS (MiB), the target <= 100")
    print(f"{'input':34} {'surface':>8} {'before':>7} {'show':>7} {'windowed':>9}")
    for shell in (False, True):
        path = folder / f"huge-{'shell' if shell else 'text'}.jsonl"
        huge_result(path, mb, shell)
        for surface in ("text", "html"):
            words = ["show", "--surface", surface, str(path)]
            then = f"{peak_mib([str(old), *words]):>7.0f}" if old else f"{'-':>7}"
            today = peak_mib([str(script), *words])
            windowed = peak_mib([sys.executable, "-c", _WINDOWED, surface, str(path)])
            name = "shell (half text, half stdout)" if shell else "text only"
            print(f"{name:34} {surface:>8} {then} {today:>7.0f} {windowed:>9.0f}")
        path.unlink()


def parse_size(text: str) -> int:
    """``1G``, ``200M``, ``64K`` or a plain byte count."""
    match = re.fullmatch(r"(\d+)\s*([KMG]?)B?", text.strip().upper())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 1G, 200M)")
    return int(match.group(1)) * _UNITS[match.group(2)]


def write_file(path: Path, size: int) -> None:
    """``size`` bytes of 100-byte lines (the last one cut short if it must be)."""
    block = _LINE * 10_000
    with path.open("wb") as out:
        left = size
        while left > 0:
            piece = block[: min(left, len(block))]
            out.write(piece)
            left -= len(piece)


def timed_shell(command: str) -> float:
    started = time.perf_counter()
    subprocess.run(["bash", "-c", command], check=True)
    return time.perf_counter() - started


def run_child(data: Path, spill_dir: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(data), str(spill_dir)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=parse_size("1G"), help="e.g. 1G, 200M")
    parser.add_argument("--line-mb", type=int, default=100, help="one huge result's MB; 0: none")
    parser.add_argument("--before", help="another checkout's python: its show, side by side")
    parser.add_argument("--only-line", action="store_true", help="only the huge result")
    options = parser.parse_args()
    size = options.size
    mb = size / 1024**2
    if options.only_line:
        with tempfile.TemporaryDirectory(prefix="toolview-bench-") as folder:
            huge_results(Path(folder), options.line_mb, options.before)
        return
    with tempfile.TemporaryDirectory(prefix="toolview-bench-") as folder:
        data = Path(folder) / "output.txt"
        spill_dir = Path(folder) / "spill"
        spill_dir.mkdir()
        write_file(data, size)
        timed_shell(f"cat {data} > /dev/null")  # warm the page cache
        cat_null = timed_shell(f"cat {data} > /dev/null")
        cat_pipe = timed_shell(f"cat {data} | cat > /dev/null")
        copy = spill_dir / "copy.txt"
        cat_copy = timed_shell(f"cat {data} > {copy} && sync {copy}")
        copy.unlink()
        child = run_child(data, spill_dir)
        data.unlink()
        if options.line_mb:
            huge_results(Path(folder), options.line_mb, options.before)
    elapsed = child["elapsed"]
    lines = -(-size // len(_LINE))
    print(f"output: {mb:,.0f} MB ({size:,} bytes, {lines:,} lines)")
    print(f"{'':34} {'peak RSS':>10} {'time':>8} {'MB/s':>8}")
    print(
        f"{'runner (cat FILE via CommandRunner)':34} {child['peak_kb'] / 1024:>7.1f} MB"
        f" {elapsed:>7.2f}s {mb / elapsed:>8.0f}"
    )
    print(f"{'  python + toolview, before running':34} {child['baseline_kb'] / 1024:>7.1f} MB")
    print(f"{'cat FILE > /dev/null':34} {'':>10} {cat_null:>7.2f}s {mb / cat_null:>8.0f}")
    print(f"{'cat FILE | cat > /dev/null':34} {'':>10} {cat_pipe:>7.2f}s {mb / cat_pipe:>8.0f}")
    print(
        f"{'cat FILE > copy (the spill cost)':34} {'':>10} {cat_copy:>7.2f}s {mb / cat_copy:>8.0f}"
    )
    print(
        f"truncation: shown {child['shown']:,} of {child['total']:,} {child['unit']};"
        f" spill file {child['spill_bytes']:,} bytes; {child['partials']:,} partial results"
    )
    verdict = "OK" if child["peak_kb"] < 100 * 1024 else "OVER"
    print(f"target peak RSS < 100 MB: {verdict}")


if __name__ == "__main__":
    main()
