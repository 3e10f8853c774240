"""Memory grows with the largest record, not with the rollout: the loader streams."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

from toolview.hosts.codex import load_observations, session_files


def _repeated(source: Path, target: Path, copies: int) -> Path:
    """The rollout's body ``copies`` times over, each copy with fresh call ids."""
    head, *body = source.read_bytes().splitlines()
    with target.open("wb") as out:
        out.write(head + b"\n")
        for n in range(copies):
            for line in body:
                out.write(re.sub(rb'(:\s*)"call_', rb'\1"c%d_' % n, line) + b"\n")
    return target


def _peak(path: Path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        count = sum(1 for _ in load_observations(path))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_ten_times_the_rollout_takes_no_more_memory(fixture_sessions: Path, tmp_path: Path) -> None:
    (main,) = session_files(fixture_sessions)
    small_count, small = _peak(_repeated(main, tmp_path / "rollout-small.jsonl", 3))
    big_count, big = _peak(_repeated(main, tmp_path / "rollout-big.jsonl", 30))
    assert big_count == 10 * small_count  # every copy mapped
    assert big < small * 1.5 + 256 * 1024, (small, big)  # ~2 MB vs ~6.4 MB of input
