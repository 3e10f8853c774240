"""Where a capture's observations go as they happen: a record file (JSON Lines).

Why a line per observation, flushed: a run that crashes still leaves every
observation before the crash on disk, readable by ``toolview show`` and
``toolview check``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from toolview.contract import Observation, encode_observation

__all__ = ["RecordFile"]


class RecordFile:
    """Appends each observation as one JSON line; a failing disk is said once, on stderr."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = path.open("wb")
        self._failed = False

    def __call__(self, observation: Observation) -> None:
        if self._failed or self._file.closed:
            return
        try:
            self._file.write(encode_observation(observation) + b"\n")
            self._file.flush()
        except (OSError, TypeError, ValueError) as exc:
            self._failed = True
            print(f"toolview: cannot record to {self.path}: {exc}", file=sys.stderr)

    def close(self) -> None:
        """Close the file."""
        self._file.close()
