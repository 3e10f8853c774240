"""A bounded view of a growing output: a head window, a tail window, a spill file.

Why: a command may print gigabytes, and memory must stay flat whatever it
prints. The window keeps the first lines (head) and the last lines (tail) as
raw bytes, counts every byte and line, and — once the output no longer fits —
writes the whole stream to a spill file. Counting raw bytes keeps the
truncation descriptor exact even for invalid UTF-8; only the small shown
window is ever decoded.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from toolview.contract import Truncation
from toolview.hosts.command.utf8 import continuation_prefix, count_lines, decode

__all__ = ["OutputWindow", "WindowLimits", "WindowView"]

_NEWLINE = 10


@dataclass(frozen=True)
class WindowLimits:
    """How much of the output stays in memory: whole lines, capped in bytes."""

    head_lines: int = 200
    head_bytes: int = 32 * 1024
    tail_lines: int = 200
    tail_bytes: int = 32 * 1024

    def __post_init__(self) -> None:
        if min(self.head_lines, self.head_bytes, self.tail_lines, self.tail_bytes) < 1:
            raise ValueError("window limits must be positive")


@dataclass(frozen=True)
class WindowView:
    """What to show now: the decoded window and, when something is left out, how much."""

    text: str
    truncated: Truncation | None
    total_bytes: int
    total_lines: int


class OutputWindow:
    """Feed it chunks of a stream; ``view()`` gives the bounded, exact window.

    With ``spill=True`` the full stream goes to a temporary file (created only
    once something is left out of the window) whose path is ``spill_path``.
    """

    def __init__(
        self,
        limits: WindowLimits | None = None,
        *,
        spill: bool = False,
        spill_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.limits = limits or WindowLimits()
        self._spill_enabled = spill
        self._spill_dir = spill_dir
        self._spill_file: BinaryIO | None = None
        self.spill_path: Path | None = None
        self._head = bytearray()
        self._head_newlines = 0
        self._head_full = False
        self._tail = bytearray()
        self._tail_starts_line = True
        self._dropped = False
        self._total = 0
        self._newlines = 0
        self._last_byte = _NEWLINE
        self._closed = False

    @property
    def memory_bytes(self) -> int:
        """Bytes of output held in memory: never more than head_bytes + tail_bytes."""
        return len(self._head) + len(self._tail)

    def feed(self, chunk: bytes) -> None:
        """Account for one chunk of the stream."""
        if not chunk:
            return
        self._total += len(chunk)
        self._newlines += chunk.count(b"\n")
        self._last_byte = chunk[-1]
        if self._spill_file is not None:
            self._spill_file.write(chunk)
        rest = chunk if self._head_full else self._fill_head(chunk)
        if rest:
            self._push_tail(rest)

    def close(self) -> None:
        """The stream ended: decode its last bytes for good, close the spill file."""
        self._closed = True
        if self._spill_file is not None:
            self._spill_file.close()
            self._spill_file = None

    def _fill_head(self, chunk: bytes) -> bytes:
        """Take what the head still has room for; return the rest."""
        room = self.limits.head_bytes - len(self._head)
        piece = chunk[:room]
        need = self.limits.head_lines - self._head_newlines
        pos = -1
        for _ in range(need):
            pos = piece.find(b"\n", pos + 1)
            if pos < 0:
                break
        take = pos + 1 if pos >= 0 else len(piece)
        self._head_full = pos >= 0 or take == room
        self._head += piece[:take]
        self._head_newlines += piece.count(b"\n", 0, take)
        return chunk[take:]

    def _push_tail(self, rest: bytes) -> None:
        """Append to the tail, dropping its oldest bytes beyond the cap."""
        cap = self.limits.tail_bytes
        buf = self._tail
        overflow = len(buf) + len(rest) - cap
        if overflow <= 0:
            buf += rest
            return
        if self._spill_file is None and self._spill_enabled:
            self._open_spill()
            assert self._spill_file is not None
            self._spill_file.write(rest)
        self._dropped = True
        if len(rest) >= cap:
            before = rest[-cap - 1] if len(rest) > cap else self._byte_before_tail()
            self._tail_starts_line = before == _NEWLINE
            buf[:] = rest[-cap:]
        else:
            self._tail_starts_line = buf[overflow - 1] == _NEWLINE
            del buf[:overflow]
            buf += rest

    def _byte_before_tail(self) -> int:
        """The last byte already held: what precedes a tail that starts afresh."""
        if self._tail:
            return self._tail[-1]
        return self._head[-1] if self._head else _NEWLINE

    def _open_spill(self) -> None:
        """Start spilling: everything so far is still in memory, contiguous."""
        fd, name = tempfile.mkstemp(prefix="toolview-run-", suffix=".out", dir=self._spill_dir)
        self.spill_path = Path(name)
        self._spill_file = os.fdopen(fd, "wb")
        self._spill_file.write(self._head)
        self._spill_file.write(self._tail)

    def view(self) -> WindowView:
        """The window now; starts the spill file if lines are left out and it has none."""
        head, tail = bytes(self._head), bytes(self._tail)
        start, at_line = self._tail_start(tail)
        if not self._dropped and start == 0:
            text, pending = decode(head + tail, final=self._closed)
            return WindowView(text, None, self._total - pending, self._total_lines())
        if self._spill_enabled and self.spill_path is None:
            self._open_spill()
            if self._closed:
                self.close()
        if self._spill_file is not None:
            self._spill_file.flush()  # readable while the command still runs
        return self._gapped_view(head, tail, start, at_line)

    def _gapped_view(self, head: bytes, tail: bytes, start: int, at_line: bool) -> WindowView:
        segment = tail[start:]
        if not at_line:
            segment = segment[continuation_prefix(segment) :]
        head_text, head_pending = decode(head, final=False)
        tail_text, tail_pending = decode(segment, final=self._closed)
        total_bytes = self._total - tail_pending
        total_lines = self._total_lines()
        if at_line and head.endswith(b"\n"):
            shown = self._head_newlines + count_lines(segment)
            truncated = Truncation(shown=shown, total=total_lines, unit="lines")
        else:
            shown = len(head) - head_pending + len(segment) - tail_pending
            truncated = Truncation(shown=shown, total=total_bytes, unit="bytes")
        omitted = truncated.total - truncated.shown
        separator = "" if head_text.endswith("\n") else "\n"
        marker = f"… {omitted:,} {truncated.unit} omitted …\n"
        return WindowView(
            head_text + separator + marker + tail_text, truncated, total_bytes, total_lines
        )

    def _tail_start(self, tail: bytes) -> tuple[int, bool]:
        """Where the tail window starts in the buffer, and whether that is a line start."""
        pos = len(tail) - 1 if tail.endswith(b"\n") else len(tail)
        start, found = 0, 0
        while found < self.limits.tail_lines:
            newline = tail.rfind(b"\n", 0, pos)
            if newline < 0:
                break
            found, start, pos = found + 1, newline + 1, newline
        if found == self.limits.tail_lines:
            return start, True
        if not self._dropped or self._tail_starts_line:
            return 0, True
        return start, found > 0

    def _total_lines(self) -> int:
        return self._newlines + (0 if self._last_byte == _NEWLINE else 1)
