"""Outputs Claude Code stored in ``<session>/tool-results/`` instead of the session.

The preview names the file by the absolute path it had on the machine that
wrote it. Only its *name* is used, and only inside this session's own
``tool-results/`` folder: a session file (which anyone may hand you) can never
make toolview read another file. What is read is bounded; a cut is said.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["MAX_STORED_BYTES", "StoredOutputs"]

MAX_STORED_BYTES: Final = 8 * 1024 * 1024


class StoredOutputs:
    """``read(name)`` → the stored output's text, or ``None`` when it is not there."""

    def __init__(self, session_dir: Path, limit: int = MAX_STORED_BYTES) -> None:
        self.folder = session_dir / "tool-results"
        self.limit = limit

    def __call__(self, recorded: str) -> str | None:
        name = recorded.replace("\\", "/").rsplit("/", 1)[-1]
        if not name or name in (".", "..") or len(name) > 255:
            return None
        path = self.folder / name
        try:
            with path.open("rb") as handle:
                data = handle.read(self.limit + 1)
                size = path.stat().st_size
        except OSError:
            return None
        if len(data) <= self.limit:
            return data.decode("utf-8", errors="replace")
        text = data[: self.limit].decode("utf-8", errors="ignore")
        return (
            f"{text}\n[note: only the first {self.limit} bytes of the stored output "
            f"({size} bytes) are shown]"
        )
