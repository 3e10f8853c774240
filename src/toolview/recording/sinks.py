"""Where a capture's observations go as they happen: a record file (JSON Lines).

Why a line per observation, flushed: a run that crashes still leaves every
observation before the crash on disk, readable by ``toolview show`` and
``toolview check``. The file follows the command line's private-file rules
(``toolview.private_files``: 0600 whatever the umask, a planted link replaced
and never written through), and only a regular file is written: a FIFO, a
folder or a device at the path is refused at ``with``, before the agent runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from toolview.contract import Observation, encode_observation
from toolview.private_files import open_private

__all__ = ["RecordFile"]


class RecordFile:
    """Appends each observation as one JSON line; a failing disk is said once, on stderr."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open_private(path, only_regular=True)
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
