"""One JSON line read in pieces, every over-long string in it kept as a head and a tail.

Why: a 100 MB tool output is one JSON line, and decoding it whole costs about
three times the line (the line, msgspec's buffer for the unescaped string,
the string) while a surface shows a few KB of it. Here the line is scanned as
it is read: a string value longer than ``limit`` raw bytes goes through an
``OutputWindow`` (the command host's head and tail windows, its exact line
and byte counts) and comes out as the window's text — its head, a gap marker
``… N lines omitted …``, its tail — with the ``Truncation`` saying what was
cut, as data: the caller puts it in the result's descriptor. Memory is then
the window and one piece, whatever the line's length.

Only the quotes matter to find a string: outside a string JSON has no other
quote, and inside one a quote ends it unless an odd run of backslashes comes
before it. A string's raw bytes are decoded in pieces cut where no escape
sequence and no UTF-8 character is split (``_safe_end``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import msgspec

from toolview.contract import Truncation
from toolview.hosts.command.output_window import OutputWindow, WindowLimits

__all__ = ["LONG_STRING", "Scan", "StringWindow", "window_strings"]

LONG_STRING: Final = 4 * 1024 * 1024
"""Raw bytes past which a string is windowed: 60 times what a surface shows of it."""
_BACKSLASH: Final = 0x5C
_ESCAPE_BYTES: Final = 12  # the longest escape: a surrogate pair, \\uD83D\\uDE00


class StringWindow:
    """The head and tail of one JSON string whose raw (escaped) bytes come in pieces."""

    def __init__(self, limits: WindowLimits | None = None) -> None:
        self._window = OutputWindow(limits)
        self._pending = b""

    def feed(self, raw: bytes) -> None:
        """Decode what of ``raw`` (and what was held back) is whole; hold back the rest."""
        data = self._pending + raw if self._pending else raw
        end = _safe_end(data)
        self._pending = data[end:]
        if end:
            self._window.feed(_unescape(data[:end]).encode("utf-8", "surrogatepass"))

    def close(self) -> tuple[bytes, Truncation | None]:
        """The window's text as a JSON string's raw bytes (no quotes), and what was cut."""
        if self._pending:
            self._window.feed(_unescape(self._pending).encode("utf-8", "surrogatepass"))
        self._window.close()
        view = self._window.view()
        return msgspec.json.encode(view.text)[1:-1], view.truncated


def window_strings(
    pieces: Iterable[bytes], limit: int = LONG_STRING, limits: WindowLimits | None = None
) -> tuple[bytes, list[Truncation]]:
    """The line made of ``pieces`` with each string over ``limit`` raw bytes windowed, and
    the truncation of each string that was cut, in the line's order."""
    scan = Scan(limit, limits)
    for piece in pieces:
        scan.feed(piece)
    return scan.close()


class Scan:
    """The state of one line's scan: inside a string or not, and the string's window."""

    def __init__(self, limit: int, limits: WindowLimits | None) -> None:
        self.limit = limit
        self.limits = limits
        self.out = bytearray()
        self.cuts: list[Truncation] = []
        self.in_string = False
        self.start = 0  # where the open string's bytes begin in ``out``
        self.backslashes = 0  # the run of backslashes the open string's bytes end with
        self.window: StringWindow | None = None

    def feed(self, piece: bytes) -> None:
        pos = 0
        while pos < len(piece):
            if not self.in_string:
                quote = piece.find(b'"', pos)
                if quote < 0:
                    self.out += piece[pos:]
                    return
                self.out += piece[pos : quote + 1]
                self.in_string, self.start, self.backslashes = True, len(self.out), 0
                pos = quote + 1
                continue
            quote = self._closing_quote(piece, pos)
            self._take(piece[pos : len(piece) if quote < 0 else quote])
            if quote < 0:
                return
            self._close_string()
            pos = quote + 1

    def close(self) -> tuple[bytes, list[Truncation]]:
        """The line scanned (a string left open at its end keeps its window's text), and the
        truncation of each string that was cut, in the line's order."""
        if self.window is not None:
            text, truncated = self.window.close()
            self.out += text
            self.cuts += [truncated] if truncated is not None else []
        return bytes(self.out), self.cuts

    def _closing_quote(self, piece: bytes, pos: int) -> int:
        """The first unescaped quote in ``piece`` from ``pos``, or -1."""
        quote = piece.find(b'"', pos)
        while quote >= 0:
            run = _run_before(piece, quote, pos)
            if run == quote - pos:
                run += self.backslashes  # the run goes on from the previous piece
            if run % 2 == 0:
                return quote
            quote = piece.find(b'"', quote + 1)
        return -1

    def _take(self, raw: bytes) -> None:
        """The open string's next raw bytes: kept, or fed to its window once it is long."""
        run = _run_before(raw, len(raw), 0)
        self.backslashes = run + (self.backslashes if run == len(raw) else 0)
        if self.window is not None:
            self.window.feed(raw)
            return
        self.out += raw
        if len(self.out) - self.start > self.limit:
            self.window = StringWindow(self.limits)
            self.window.feed(bytes(self.out[self.start :]))
            del self.out[self.start :]

    def _close_string(self) -> None:
        if self.window is not None:
            text, truncated = self.window.close()
            self.out += text
            if truncated is not None:
                self.cuts.append(truncated)
            self.window = None
        self.out += b'"'
        self.in_string = False


def _unescape(raw: bytes) -> str:
    """A run of a JSON string's raw bytes (whole escapes, whole characters) as text."""
    text: str = msgspec.json.decode(b'"' + raw + b'"')
    return text


def _run_before(data: bytes, end: int, start: int) -> int:
    """How many backslashes come just before ``end`` in ``data[start:end]``."""
    at = end
    while at > start and data[at - 1] == _BACKSLASH:
        at -= 1
    return end - at


def _safe_end(data: bytes) -> int:
    """How much of ``data`` ends on a whole escape and a whole UTF-8 character.

    An escape starts at a backslash that follows an even run of them; one
    that starts in the last ``_ESCAPE_BYTES`` bytes may be unfinished, so the
    cut goes before it (and before a high surrogate's escape just ahead of it).
    """
    end = len(data)
    last = data.rfind(b"\\", max(0, end - _ESCAPE_BYTES))
    if last >= 0 and _run_before(data, last, 0) % 2 == 0:  # ``last`` starts an escape
        end = last
        high = last - 6  # the first half of a surrogate pair, just ahead of it
        if high >= 0 and _run_before(data, high, 0) % 2 == 0 and _is_high(data[high:last]):
            end = high
    return _utf8_end(data, end)


def _is_high(escape: bytes) -> bool:
    """Whether ``escape`` is ``\\uD800``…``\\uDBFF``: a surrogate pair's first half."""
    return escape[:2] == b"\\u" and escape[2:4].lower() in (b"d8", b"d9", b"da", b"db")


def _utf8_end(data: bytes, end: int) -> int:
    """``end``, or the start of a UTF-8 character that ``end`` would split."""
    lead = end - 1
    while lead >= 0 and end - lead <= 4 and 0x80 <= data[lead] < 0xC0:
        lead -= 1
    if lead < 0 or data[lead] < 0xC0:
        return end
    size = 2 if data[lead] < 0xE0 else 3 if data[lead] < 0xF0 else 4
    return end if end - lead >= size else lead
