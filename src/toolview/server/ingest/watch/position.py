"""How far a watched file was read, and whether it is still the file that was read.

Why the identity travels with the offset: a restarted server must tell a
file that grew (read on from the offset) from one that was replaced or cut
(read again from the start into a new thread version — never mixed into the
old thread). The inode tells a replaced file; the size, a cut one; a digest
of its first bytes, one rewritten in place. ``finished`` says the file's end
was flushed after it stayed idle (``watch_idle``): a restarted server primes
the mapper and finishes it too, so what the flush stored is not stored
again. Stored in the log with the observations (``wire.sources``), as msgpack.
"""

from __future__ import annotations

import hashlib
import os
from typing import BinaryIO, Final

import msgspec

__all__ = ["HEAD", "ReadPosition", "head_digest"]

HEAD: Final = 4096  # bytes of a file's start that identify it


class ReadPosition(msgspec.Struct, frozen=True, array_like=True):
    """A file's read position: which thread, to where, and the file it was."""

    format: str  # the format that read it (``watch_formats``)
    thread: str  # the thread it feeds (its version's id)
    version: int  # 1, then 2, 3 … each time the file was replaced or cut
    offset: int  # bytes consumed: the end of the last complete line
    inode: int
    head: bytes  # digest of the first min(offset, HEAD) bytes
    parent: str | None = None  # the call whose sub-agent wrote the file
    finished: bool = False  # the mapper's ``finish`` is stored: the file was idle at ``offset``

    def encode(self) -> bytes:
        """The stored form."""
        return msgspec.msgpack.encode(self)

    @classmethod
    def decode(cls, raw: bytes) -> ReadPosition | None:
        """Back from ``encode``; ``None`` for anything else (read again, as new)."""
        try:
            return msgspec.msgpack.decode(raw, type=cls)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    def same_file(self, stream: BinaryIO) -> bool:
        """Whether ``stream`` is still the file this position was read from, grown or not."""
        stat = os.fstat(stream.fileno())
        if stat.st_ino != self.inode or stat.st_size < self.offset:
            return False
        return head_digest(stream, self.offset) == self.head


def head_digest(stream: BinaryIO, offset: int) -> bytes:
    """SHA-256 of the first min(offset, HEAD) bytes (the stream's position is kept)."""
    here = stream.tell()
    stream.seek(0)
    head = stream.read(min(offset, HEAD))
    stream.seek(here)
    return hashlib.sha256(head).digest()
