"""Where a command's input comes from: a path, or ``-`` for standard input.

Imported by the command line's entry point itself (for ``InputError``), so it
imports nothing that start-up would pay for.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import BinaryIO

__all__ = [
    "BOM",
    "HEAD_BYTES",
    "InputError",
    "lines_after",
    "open_input",
    "path_arg",
    "read_head",
    "refuse_binary",
    "strip_bom",
]

BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark: Windows editors and PowerShell write one
_SNIFF = 8192  # bytes looked at for a NUL, as git and grep do
_LONG_LINE = 4 * 1024 * 1024  # ``hosts.long_lines.LONG_LINE``, not imported at start-up
HEAD_BYTES = 65536
"""What the sniffers look at: a head this long decides a format as the whole input would."""


class InputError(OSError):
    """The named input cannot be read; the message says why."""


@contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """Open ``path`` for binary reading, or standard input for ``-``."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below; open errors reworded
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    with stream:
        yield stream


def path_arg(value: str) -> Path:
    """An option's value as a ``Path``: argparse's ``type=``, importing ``pathlib`` only when
    the option is given (it and ``urllib.parse`` cost every run ~10 ms of CPU otherwise)."""
    from pathlib import Path

    return Path(value)


def refuse_binary(data: bytes, path: str) -> None:
    """Raise ``InputError`` when ``data`` is binary (a NUL byte in its first line), not text.

    Why refuse rather than read: JSON Lines never hold a raw NUL, and reading
    an image or an executable line by line gives a page of garbage notes.
    Why the first line only (within the first 8 KiB): a log whose later line
    was damaged is still a log — that line is a numbered violation (``check``)
    or a visible "skipped" note (``show``) while the rest is read, not a
    reason to refuse the whole file.
    """
    first_line = data.find(b"\n", 0, _SNIFF)
    at = data.find(b"\0", 0, _SNIFF if first_line < 0 else first_line)
    if at >= 0:
        name = "standard input" if path == "-" else path
        raise InputError(f"{name} is binary (a NUL byte at offset {at}), not JSON Lines")


def strip_bom(data: bytes) -> tuple[bytes, bool]:
    """``data`` without a leading UTF-8 byte order mark, and whether it had one."""
    return (data[len(BOM) :], True) if data.startswith(BOM) else (data, False)


def read_head(stream: BinaryIO) -> bytes:
    """The start of ``stream``: up to its first complete non-blank line, ``HEAD_BYTES`` or EOF.

    Why not more: on a pipe whose writer is still at work, waiting for 64 KiB
    would hold back the first call; the first line is enough to tell
    observations (``cli.jsonl``), to refuse a binary and to drop a byte order
    mark. Each read takes what is there (``read1``), never waiting to fill.
    """
    read = getattr(stream, "read1", stream.read)
    head = b""
    while len(head) < HEAD_BYTES and not _has_a_line(head):
        chunk = read(HEAD_BYTES)
        if not chunk:
            break
        head += chunk
    return head


def lines_after(head: bytes, stream: BinaryIO) -> Iterator[bytes]:
    """Every line of ``head`` followed by the rest of ``stream``, as ``bytes.split(b"\\n")``
    numbers them, read one line at a time.

    A line comes with its ``\\n`` (a JSON decoder skips it; not copying a
    100 MB line to drop one byte), and, as ``split`` does, the piece after the
    last newline comes last (empty when the input ends in one).
    """
    return _Lines(head, stream)


class _Lines:
    """``lines_after`` as an iterator object, not a generator: a generator suspended at
    ``yield`` keeps its line alive while the reader decodes it, doubling a huge line's cost."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        *complete, self._rest = head.split(b"\n")
        self._complete = complete[::-1]  # popped from the end: first line first
        self._stream: BinaryIO | None = stream

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> bytes:
        if self._complete:
            return self._complete.pop() + b"\n"
        if self._stream is None:
            raise StopIteration
        line = self._stream.readline(_LONG_LINE)
        if self._rest:
            line, self._rest = self._rest + line, b""
        ended = line.endswith(b"\n")
        if not ended and len(line) >= _LONG_LINE:  # too long to hold whole: read in pieces
            from toolview.hosts.long_lines import finish_line

            line, ended = finish_line(line, self._stream)
        if not ended:  # the end of the input: the last piece, then stop
            self._stream = None
        return line


def _has_a_line(head: bytes) -> bool:
    """Whether ``head`` holds a complete line with something on it."""
    return any(line.strip() for line in head.split(b"\n")[:-1])
