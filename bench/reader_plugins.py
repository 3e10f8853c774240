"""What looking for reader plug-ins costs ``sessions`` and ``show``: this tree and another.

Why: the ``toolview.readers`` entry points are found through
``importlib.metadata`` (~40 ms of CPU to import, and it reads every installed
distribution's metadata); ``hosts.readers`` first looks at each
``entry_points.txt`` on ``sys.path`` and imports it only when one names the
group. Each command runs in a child process, ``HOME`` a folder holding the
real Claude Code and Codex sessions of tests/hosts (copied); its CPU (user +
sys, ``os.wait4``: waiting for a busy core does not count) is read; the two
trees take turns each round; the figure is the median.

    python bench/reader_plugins.py [RUNS] [--before OTHER_PYTHON]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "thread.jsonl"
COMMANDS = {"sessions": ["sessions"], "show text": ["show", "--surface", "text", str(EXAMPLE)]}


def _home(root: Path) -> Path:
    shutil.copytree(TESTS / "hosts" / "claude_code" / "real", root / ".claude" / "projects")
    shutil.copytree(TESTS / "hosts" / "codex" / "real" / "sessions", root / ".codex" / "sessions")
    return root


def _cpu_ms(python: str, words: list[str], env: dict[str, str]) -> float:
    child = subprocess.Popen(
        [python, "-m", "toolview", *words],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, _, usage = os.wait4(child.pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="?", type=int, default=11)
    parser.add_argument("--before", help="another tree's python, run in the same rounds")
    args = parser.parse_args()
    pythons = {"after": sys.executable, **({"before": args.before} if args.before else {})}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HOME": str(_home(Path(tmp) / "home"))}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pyc")  # bytecode cached, as installed
        found: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs + 1):  # the first round warms the bytecode cache
            for name, words in COMMANDS.items():
                for label, python in pythons.items():
                    found.setdefault((name, label), []).append(_cpu_ms(python, words, env))
    for (name, label), times in sorted(found.items()):
        median = statistics.median(times[1:])
        print(f"{name:<10} {label:<7} {median:7.1f} ms CPU (median of {args.runs})")


if __name__ == "__main__":
    main()
