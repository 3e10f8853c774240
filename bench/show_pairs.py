"""Paired runs of ``toolview show``: another tree and this one alternating on one session.

Run: ``.venv/bin/python bench/show_pairs.py SESSION --surface html --pairs 9
--before /work/wt/base/.venv/bin/python``

Why pairs: on a shared machine a row of ``bench/sessions.py`` varies by ±25 %
between its runs, more than a change of a few percent. Here the two trees run
back to back (the order flipped every pair), each child's CPU (user + sys) is
read from ``os.wait4``, and the median of the per-pair ratios is reported:
a load that comes and goes hits both runs of a pair alike. The first pair only
warms bytecode (cached as for an installed package) and the page cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def cpu_of(python: str, session: str, surface: str, env: dict[str, str]) -> float:
    """CPU seconds of one ``show`` by ``python``, its output thrown away."""
    argv = [python, "-m", "toolview", "show", "--from", "claude-code", "--surface", surface]
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen([*argv, session], stdout=sink, env=env)
        _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{python} exited {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("session")
    parser.add_argument("--surface", default="html")
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--before", required=True, help="the other tree's python")
    args = parser.parse_args()
    trees = {"before": args.before, "after": sys.executable}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory(prefix="show-pairs-") as tmp:
        env = dict(os.environ, NO_COLOR="1", PYTHONPYCACHEPREFIX=tmp)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for index in range(args.pairs + 1):
            order = list(trees.items()) if index % 2 else list(trees.items())[::-1]
            for name, python in order:
                used = cpu_of(python, args.session, args.surface, env)
                if index:
                    cpu[name].append(used)
    ratios = [a / b for a, b in zip(cpu["after"], cpu["before"], strict=True)]
    print(
        f"{args.surface}: before {statistics.median(cpu['before']):.2f} s, "
        f"after {statistics.median(cpu['after']):.2f} s (medians), median pair ratio "
        f"×{statistics.median(ratios):.3f}; pairs: {', '.join(f'{r:.2f}' for r in ratios)}"
    )


if __name__ == "__main__":
    main()
