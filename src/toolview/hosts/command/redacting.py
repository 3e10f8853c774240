"""Hide private keys in a command's output as it arrives, before any window.

Why here and not only in the surfaces: the runner is the one place that sees
the whole output. A head/tail window can drop a private key's ``BEGIN`` line
and keep its body; once that happens, no consumer can tell the body from other
base64. So each stream goes through in whole lines (a line is held until it
ends, so no other stream's output lands inside it) and a key block that spans
reads is followed with one flag: memory stays bounded by ``hold_limit``
whatever the command prints. Only keys are hidden here (one fence search per
read, cheap at any rate of output); every other credential is redacted in the
shown window when a result is built (``shell_result``), which costs what is
shown, not what was printed.
"""

from __future__ import annotations

from toolview.safety.pem import ends_inside_a_key, hide_private_keys, key_lines_end

__all__ = ["HOLD_LIMIT", "StreamRedactor"]

HOLD_LIMIT = 64 * 1024
"""Longest unterminated line held back; longer, it goes on at its last space."""


class StreamRedactor:
    """One output stream: ``feed`` raw bytes, get whole lines with keys hidden."""

    def __init__(self, hold_limit: int = HOLD_LIMIT) -> None:
        self._hold_limit = hold_limit
        self._held = b""
        self._in_key = False  # inside a private-key block whose END has not come yet

    @property
    def held_bytes(self) -> int:
        """Bytes waiting for the end of their line."""
        return len(self._held)

    def feed(self, chunk: bytes) -> bytes:
        """Every line ``chunk`` completes, keys hidden; the rest waits."""
        data = self._held + chunk if self._held else chunk
        cut = self._cut(data)
        if cut == len(data):  # the usual case: a read that ends a line, no copy
            self._held = b""
            return self._redact(data)
        self._held = data[cut:]
        return self._redact(data[:cut]) if cut else b""

    def close(self) -> bytes:
        """The stream ended: what was held goes out, keys hidden."""
        data, self._held = self._held, b""
        return self._redact(data) if data else b""

    def _cut(self, data: bytes) -> int:
        """Where the complete lines end: after the last LF (or a CR that is
        not the last byte: a progress bar redraws with CR alone)."""
        if data.endswith(b"\n"):
            return len(data)
        newline = data.rfind(b"\n")
        carriage = data.rfind(b"\r", 0, len(data) - 1)
        cut = max(newline, carriage) + 1
        if cut == 0 and len(data) > self._hold_limit:
            space = max(data.rfind(b" "), data.rfind(b"\t"))
            cut = space + 1 if space > 0 else len(data)
        return cut

    def _redact(self, data: bytes) -> bytes:
        if not self._in_key and b"-----" not in data:
            return data  # no fence, no key: the bytes go on untouched, undecoded
        text = data.decode("utf-8", "surrogateescape")
        if self._in_key:
            end, closed = key_lines_end(text)
            text = text[end:]
            self._in_key = not closed and not text
            if self._in_key:
                return b""
        out = hide_private_keys(text)
        self._in_key = "-----BEGIN" in text and ends_inside_a_key(text)
        return out.encode("utf-8", "surrogateescape")
