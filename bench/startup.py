"""Start-up cost of the ``toolview`` command, as a ratio to ``import rich.console``.

Why a ratio: absolute times depend on the machine and on its load (a shared
2-core box doubles them); the cost of importing Rich's console, measured in
the same run with the same interpreter, moves with them. Each command is run
``RUNS`` times in a child process; its CPU time (user + sys, from
``os.wait4``, so time spent waiting for a core does not count) is taken, and
the median compared to the baseline's median. Exits 1 if a command misses its
target.

    python bench/startup.py            # the table; exit 1 on a missed target
    python bench/startup.py 9          # median of 9 runs instead of 5
    python bench/startup.py 9 /work/wt/base/.venv/bin/python   # and that tree's, side by side

With a second interpreter (another checkout's venv), each command is also run
with that interpreter's ``toolview`` ("before"), in the same rounds.

The ``toolview`` run is the console script beside ``sys.executable`` (what a
user types), else ``python -m toolview``. Bytecode is cached for every child,
as an installed package has it: the children write and read their ``.pyc``
files under a temporary ``PYTHONPYCACHEPREFIX`` (whatever
``PYTHONDONTWRITEBYTECODE`` says), so an editable checkout is not charged for
compiling its sources on every run, and nothing is written into the tree.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

RUNS: Final = 5
EXAMPLE: Final = Path(__file__).resolve().parents[1] / "examples" / "thread.jsonl"
BASELINE: Final = "python -c 'import rich.console'"
TARGETS: Final[dict[str, float | None]] = {  # what is run → the most it may cost, in baselines
    "toolview --help": 1.5,
    "toolview show --surface text examples/thread.jsonl": 2.0,  # issue 23, 8 (2.5 before)
    "toolview check examples/thread.jsonl": 2.0,
    "toolview show examples/thread.jsonl": None,  # the terminal surface (Rich): no target
}


BEFORE: Final = "before: "


def toolview(python: str) -> list[str]:
    """The command a user runs, with the interpreter ``python``."""
    script = Path(python).parent / "toolview"
    return [str(script)] if script.exists() else [python, "-m", "toolview"]


def argv_for(name: str, before: str | None = None) -> list[str]:
    """The argv of one row of the table (``before: …``: with the interpreter ``before``)."""
    if name == BASELINE:
        return [sys.executable, "-c", "import rich.console"]
    python = sys.executable
    if name.startswith(BEFORE) and before is not None:
        name, python = name.removeprefix(BEFORE), before
    words = name.split()[1:]
    return [
        *toolview(python),
        *(str(EXAMPLE) if word.endswith(".jsonl") else word for word in words),
    ]


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """User + system CPU time of one run of ``argv`` (output discarded; must exit 0)."""
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {child.returncode}")
    return usage.ru_utime + usage.ru_stime


def medians_ms(rows: list[str], runs: int, before: str | None = None) -> dict[str, float]:
    """The median CPU time of each row over ``runs`` rounds, in milliseconds.

    The rows take turns, round by round, so a change in the machine's load
    falls on all of them alike; one warm-up round first (cold caches, .pyc).
    """
    argvs = {name: argv_for(name, before) for name in rows}
    samples: dict[str, list[float]] = {name: [] for name in rows}
    with tempfile.TemporaryDirectory(prefix="toolview-pyc-") as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for argv in argvs.values():
            cpu_seconds(argv, env)
        for _ in range(runs):
            for name, argv in argvs.items():
                samples[name].append(cpu_seconds(argv, env))
    return {name: statistics.median(times) * 1000 for name, times in samples.items()}


def main(runs: int = RUNS, before: str | None = None) -> int:
    """Print the table; 1 if any command costs more than its target."""
    rows = [BASELINE, *TARGETS]
    if before is not None:
        rows += [BEFORE + name for name in TARGETS]
    times = medians_ms(rows, runs, before)
    base = times[BASELINE]
    print(f"CPU time (user+sys), median of {runs}, {sys.executable}")
    print(f"{'command':<64} {'ms':>7} {'ratio':>6} {'target':>7}")
    missed = 0
    for name in rows:
        ratio = times[name] / base
        target = TARGETS.get(name)  # a "before" row has none: it is what was
        verdict = "" if target is None else f"{'≤' if ratio <= target else '>'}{target:g}×"
        missed += target is not None and ratio > target
        print(f"{name:<64} {times[name]:7.1f} {ratio:5.2f}× {verdict:>7}")
    if missed:
        print(f"{missed} target(s) missed", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    raise SystemExit(main(int(args[0]) if args else RUNS, args[1] if len(args) > 1 else None))
