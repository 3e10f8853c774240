"""When a watched file that stopped growing is finished: its idle timers.

Why: a host's mapper holds the last turn's usage and the run's end until a
next line that, for a finished session, never comes — ``show`` calls the
mapper's ``finish`` at the end of the file, and a watcher has no end. So a
file that has not grown for ``idle`` seconds (its modification time says
since when, so a session that ended long before the server started is
finished as soon as it is read) is finished; if it grows again, the mapper
reopens the same run itself and nothing ``finish`` gave is given again
(``watch_reader``). The timer only queues the file: the finish is stored
by the watcher's one loop, in order with the reads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = ["WATCH_IDLE", "IdleTimers"]

# seconds without growth before a watched file is finished: long enough that a quiet build or
# test run the agent waits on is not drawn aborted meanwhile (Claude Code's Bash waits 2 min)
WATCH_IDLE: Final = 300.0


class IdleTimers:
    """One timer per file read and not yet finished; ``due`` is called when one fires."""

    def __init__(self, idle: float, due: Callable[[Path], None]) -> None:
        self.idle = idle
        self.due = due
        self._timers: dict[Path, asyncio.TimerHandle] = {}

    def wait(self, path: Path) -> float:
        """Seconds until ``path`` has been idle long enough (0: now), its timer set meanwhile."""
        self.cancel(path)
        try:
            modified = path.stat().st_mtime
        except OSError:
            return 0.0  # gone: what was read of it is all there is
        left = modified + self.idle - time.time()
        if left > 0:
            loop = asyncio.get_running_loop()
            self._timers[path] = loop.call_later(left, self._fire, path)
        return max(0.0, left)

    def cancel(self, path: Path) -> None:
        """No timer for ``path`` (finished, forgotten, or to be set again)."""
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        """Every timer cancelled (the watcher stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _fire(self, path: Path) -> None:
        self._timers.pop(path, None)
        self.due(path)
