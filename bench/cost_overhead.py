"""What cost adds to ``show`` and ``sessions``: CPU of the child, this tree beside another.

Run: ``.venv/bin/python bench/cost_overhead.py [RUNS] [BEFORE_PYTHON]`` (e.g.
``/work/wt/base/.venv/bin/python``: its tree's ``toolview``, run in the same
rounds, alternating). Each command's CPU time (user + sys of the child, from
``os.wait4``: waiting for a core does not count) over ``RUNS`` runs, median.

The price library (``genai_prices``, with pydantic) is imported on the first
turn priced (``contract.cost``): a session with model turns pays it once, a
thread without none (``examples/thread.jsonl``) never.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOSTS = ROOT / "tests" / "hosts"
CLAUDE = HOSTS / "claude_code" / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
COMMANDS = {
    "show --surface text (Claude Code, 15 turns)": ["show", "--surface", "text", str(CLAUDE)],
    "show --surface text examples/thread.jsonl (no turns)": [
        "show", "--surface", "text", str(ROOT / "examples" / "thread.jsonl")
    ],
    "sessions (3 real sessions)": [
        "sessions", "--claude", str(HOSTS / "claude_code" / "real"),
        "--codex", str(HOSTS / "codex" / "real" / "sessions"),
    ],
}  # fmt: skip


def cpu(python: str, words: list[str]) -> float:
    """One run's CPU seconds (user + sys) of ``python -m toolview WORDS``."""
    child = subprocess.Popen(
        [python, "-m", "toolview", *words], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, words
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    pythons = {"after": sys.executable}
    if len(sys.argv) > 2:
        pythons = {"before": sys.argv[2], **pythons}
    for name, words in COMMANDS.items():
        times: dict[str, list[float]] = {label: [] for label in pythons}
        for _ in range(runs):
            for label, python in pythons.items():
                times[label].append(cpu(python, words))
        shown = "  ".join(f"{k} {statistics.median(v) * 1000:6.0f} ms" for k, v in times.items())
        print(f"{name:<55} {shown}")


if __name__ == "__main__":
    main()
