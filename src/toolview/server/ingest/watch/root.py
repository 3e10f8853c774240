"""``WatchRoot``: a folder ``serve --watch`` reads, on its own so naming one costs nothing.

Why apart from the watcher: the command line and the app name the folders
on every start, while the watcher (and the Claude Code and Codex hosts it
brings, ~0.2 s of imports) is loaded only when there is a folder to watch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["WatchRoot"]


@dataclass(frozen=True)
class WatchRoot:
    """A watched folder, and the format its files are tried in first (``None``: any)."""

    path: Path
    preferred: str | None = None
