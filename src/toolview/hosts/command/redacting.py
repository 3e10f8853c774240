"""Redact a command's output as it arrives, before any window sees it.

Why here and not only in the surfaces: the runner is the one place that sees
the whole output. A head/tail window can drop a private key's ``BEGIN`` line
and keep its body; once that happens, no consumer can tell the body from other
base64. So each stream is redacted in whole lines (a line is held until it
ends, so no secret is split between two reads and no other stream's output
lands inside it), and a key block that spans reads is followed with one flag:
memory stays bounded by ``hold_limit`` whatever the command prints.
"""

from __future__ import annotations

from toolview.safety import redact
from toolview.safety.pem import ends_inside_a_key, key_lines_end

__all__ = ["HOLD_LIMIT", "StreamRedactor"]

HOLD_LIMIT = 64 * 1024
"""Longest unterminated line held back; longer, it goes on at its last space."""


class StreamRedactor:
    """One output stream: ``feed`` raw bytes, get redacted bytes of whole lines."""

    def __init__(self, hold_limit: int = HOLD_LIMIT) -> None:
        self._hold_limit = hold_limit
        self._held = b""
        self._in_key = False  # inside a private-key block whose END has not come yet

    @property
    def held_bytes(self) -> int:
        """Bytes waiting for the end of their line."""
        return len(self._held)

    def feed(self, chunk: bytes) -> bytes:
        """Redacted output for every line ``chunk`` completes; the rest waits."""
        data = self._held + chunk if self._held else chunk
        cut = self._cut(data)
        self._held = data[cut:]
        return self._redact(data[:cut]) if cut else b""

    def close(self) -> bytes:
        """The stream ended: what was held goes out, redacted."""
        data, self._held = self._held, b""
        return self._redact(data) if data else b""

    def _cut(self, data: bytes) -> int:
        """Where the complete lines end: after the last LF (or a CR that is
        not the last byte: a progress bar redraws with CR alone)."""
        newline = data.rfind(b"\n")
        carriage = data.rfind(b"\r", 0, len(data) - 1)
        cut = max(newline, carriage) + 1
        if cut == 0 and len(data) > self._hold_limit:
            space = max(data.rfind(b" "), data.rfind(b"\t"))
            cut = space + 1 if space > 0 else len(data)
        return cut

    def _redact(self, data: bytes) -> bytes:
        text = data.decode("utf-8", "surrogateescape")
        if self._in_key:
            end, closed = key_lines_end(text)
            text = text[end:]
            self._in_key = not closed and not text
            if self._in_key:
                return b""
        out = redact(text)
        self._in_key = "-----BEGIN" in text and ends_inside_a_key(text)
        return out.encode("utf-8", "surrogateescape")
