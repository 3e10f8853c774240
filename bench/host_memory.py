"""Peak memory and throughput of the command runner on a very large output.

Run: ``.venv/bin/python bench/host_memory.py [--size 1G]``. Writes a file of
``--size`` bytes (100-byte lines) into a temporary folder once, then:

* runs ``cat FILE`` through ``CommandRunner`` in a child process and reports
  that process's peak RSS (VmHWM) next to the output size — the target is
  under 100 MB whatever the size — and its throughput;
* times ``cat FILE > /dev/null``, ``cat FILE | cat > /dev/null`` and a copy
  of the file (what spilling the full output costs) on the same bytes.

Not a test: timings vary by machine. The temporary folder is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
    size = parser.parse_args().size
    mb = size / 1024**2
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
