"""Which files under the watched folders are read, and in which order.

Why apart: the watcher reads every ``*.jsonl`` under a folder (the formats'
``sniff`` then says which are sessions), on start the most recently changed
first — a running session is live soonest, however many old ones wait.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

__all__ = ["SUFFIX", "newest_first", "session_files"]

SUFFIX: Final = ".jsonl"  # session files (Claude Code's, Codex's, toolview's)


def session_files(folder: Path) -> list[Path]:
    """Every session file under ``folder``."""
    try:
        return [p for p in folder.rglob(f"*{SUFFIX}") if p.is_file()]
    except OSError:
        return []


def newest_first(paths: Iterable[Path]) -> list[Path]:
    """``paths``, the most recently modified first (one gone meanwhile: last)."""

    def modified(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=modified, reverse=True)
