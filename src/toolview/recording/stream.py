"""``OutputStream``: a running call's output, as partial results with accumulated text.

Why throttled: a tool may write a line a millisecond; every surface and the
wire want at most one partial per ``interval`` (the command host's cadence),
each carrying ALL the output so far, so a consumer replaces, never appends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["OutputStream"]

INTERVAL = 0.1


class OutputStream:
    """``write(text)`` as output arrives; ``close()`` sends what is still pending.

    ``send`` gets the output so far (the recorder makes it a partial result, redacted).
    """

    def __init__(self, send: Callable[[str], None], interval: float = INTERVAL) -> None:
        self._send = send
        self._interval = interval
        self._parts: list[str] = []
        self._last = 0.0
        self._dirty = False
        self._lock = threading.Lock()

    @property
    def text(self) -> str:
        """All the output written so far."""
        with self._lock:
            return "".join(self._parts)

    def write(self, text: str) -> None:
        """Add ``text``; a partial result goes out at most once per interval."""
        with self._lock:
            self._parts.append(str(text))
            self._dirty = True
            now = time.monotonic()
            if now - self._last < self._interval:
                return
            self._last, self._dirty = now, False
            so_far = "".join(self._parts)
        self._send(so_far)

    def close(self) -> None:
        """Send the last partial if some output has not gone out yet."""
        with self._lock:
            if not self._dirty:
                return
            self._dirty = False
            so_far = "".join(self._parts)
        self._send(so_far)

    def __enter__(self) -> OutputStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
