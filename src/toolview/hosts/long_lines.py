"""A line too long to hold whole, read in pieces, each huge string kept as its head and tail.

Why: a 100 MB tool output is one JSON line; read whole, then decoded, it costs
about three times the line while a surface shows a few KB of it. A reader
(``cli.inputs``, ``hosts.sessions.file_lines``) reads a line as usual up to
``LONG_LINE`` bytes; past that, ``finish_line`` reads the rest in pieces
through ``long_strings`` (each string over ``LONG_STRING`` kept as its head and
tail), so memory is the window and one piece whatever the line's length. The
cuts come with the line (``cut_lines.CutLine``) for ``with_cuts``. A line under
``LONG_LINE`` is read and decoded exactly as before; this module is imported
only when a longer one comes.
"""

from __future__ import annotations

from typing import BinaryIO, Final

from toolview.hosts.command.output_window import WindowLimits
from toolview.hosts.cut_lines import CutLine
from toolview.hosts.long_strings import LONG_STRING, Scan

__all__ = ["LONG_LINE", "STRING_WINDOW", "finish_line"]

LONG_LINE: Final = LONG_STRING
"""Bytes of one line read as they come; a longer line is read through ``finish_line``."""
STRING_WINDOW: Final = WindowLimits(
    head_lines=45, head_bytes=16 * 1024, tail_lines=45, tail_bytes=16 * 1024
)
"""What a cut string keeps: head, gap line and tail fit a surface's 100 lines and 64,000
characters (``render.limits.Limits``), so the tail is drawn too, not only the head."""
_PIECE: Final = 1 << 20


def finish_line(start: bytes, stream: BinaryIO) -> tuple[bytes, bool]:
    """The line that begins with ``start`` (no newline in it), its rest read from ``stream``
    in pieces, each long string windowed; and whether a newline ended it (kept: outside a
    string it is JSON's whitespace, and a ``CutLine`` copied to add it would lose its cuts)."""
    scan = Scan(LONG_STRING, STRING_WINDOW)
    scan.feed(start)
    ended = False
    while not ended:
        piece = stream.readline(_PIECE)
        if not piece:
            break
        ended = piece.endswith(b"\n")
        scan.feed(piece)
    line, cuts = scan.close()
    if not cuts:
        return line, ended
    cut = CutLine(line)
    cut.cuts = tuple(cuts)
    return cut, ended
