"""``OutputStream``: a running call's output, as partial results with accumulated text.

Why throttled: a tool may write a line a millisecond; every surface and the
wire want at most one partial per ``interval`` (the command host's cadence),
each carrying ALL the output so far, so a consumer replaces, never appends.
Why a timer: output held back by the throttle must not wait for the next
write (a build prints a line, then thinks for a minute) — it goes out when
the interval is over, as the command host's select timeout does. Memory is
bounded: past ``WINDOW`` characters a partial carries the latest ``WINDOW``
(the producer's current window, as the contract allows); ``dropped`` counts
what scrolled out. (A command's own output: ``CommandRunner(tool_call_id=)``.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["INTERVAL", "WINDOW", "OutputStream"]

INTERVAL = 0.1
WINDOW = 1024 * 1024


class OutputStream:
    """``write(text)`` as output arrives; ``close()`` sends what is still pending.

    ``send`` gets the output so far (the recorder makes it a partial result, redacted).
    """

    def __init__(
        self, send: Callable[[str], None], interval: float = INTERVAL, window: int = WINDOW
    ) -> None:
        self._send = send
        self._interval = interval
        self._window = window
        self._parts: list[str] = []
        self._held = 0
        self.dropped = 0
        """Characters written that scrolled out of the window."""
        self._last = -interval
        self._dirty = False
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    @property
    def text(self) -> str:
        """The output written so far (its latest ``window`` characters)."""
        with self._lock:
            return "".join(self._parts)

    def write(self, text: str) -> None:
        """Add ``text``; a partial result goes out now, or when the interval is over."""
        with self._lock:
            self._keep(str(text))
            self._dirty = True
            wait = self._last + self._interval - time.monotonic()
            if wait > 0:
                if self._timer is None:
                    self._timer = threading.Timer(wait, self._flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
            so_far = self._take()
        self._send(so_far)

    def _keep(self, text: str) -> None:
        self._parts.append(text)
        self._held += len(text)
        if self._held > self._window:  # only the latest window stays
            joined = "".join(self._parts)
            self.dropped += len(joined) - self._window
            self._parts, self._held = [joined[-self._window :]], self._window

    def _take(self) -> str:
        """The output so far, marked sent (call under the lock)."""
        self._last, self._dirty = time.monotonic(), False
        return "".join(self._parts)

    def _flush(self) -> None:
        with self._lock:
            self._timer = None
            if not self._dirty:
                return
            so_far = self._take()
        self._send(so_far)

    def close(self) -> None:
        """Send the last partial if some output has not gone out yet; stop the timer."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if not self._dirty:
                return
            so_far = self._take()
        self._send(so_far)

    def __enter__(self) -> OutputStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
