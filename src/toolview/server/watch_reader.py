"""One watched file: its mapper, its read position, and the next batch read from it.

Why sans-asyncio: reading and mapping are blocking work run in a worker
thread (``watch`` awaits them), and each batch is handed back *unstored*: the
watcher stores the observations and the new position in one atomic write,
then ``commit``s. The mapper's state is not stored: a restarted server feeds
the file's lines up to the stored offset through a fresh mapper again
(``open_reader``), outputs dropped — the mappers are deterministic, so it is
back where it was, with no copy of a host's internals in the log.

Memory is bounded by the largest line: lines are read one at a time, a
batch stops at ``MAX_OBSERVATIONS`` or ``MAX_BYTES``, and a last line
without its newline (half-written) is left for the next read.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

import msgspec

from toolview.contract import Observation
from toolview.server.watch_formats import SessionFormat, SessionMapper, thread_id
from toolview.server.watch_position import ReadPosition, head_digest

__all__ = [
    "MAX_BYTES",
    "MAX_OBSERVATIONS",
    "Batch",
    "FileReader",
    "FileReplaced",
    "Join",
    "open_reader",
]

MAX_OBSERVATIONS: Final = 500  # per batch: a live follower sees a long catch-up arrive in steps
MAX_BYTES: Final = 4 * 1024 * 1024  # of lines per batch (one line may be longer)
_SNIFF: Final = 64 * 1024

log = logging.getLogger("toolview.watch")


class FileReplaced(RuntimeError):
    """The file is no longer the one being read (replaced, cut or rewritten)."""


@dataclass(frozen=True)
class Join:
    """A sub-agent's file goes into another file's thread, marked with the call that ran it."""

    thread: str
    parent_call_id: str


@dataclass(frozen=True)
class Batch:
    """Observations read, unstored, and the position they move the file to."""

    observations: list[Observation]
    before: bytes | None  # the stored position the move starts from
    after: ReadPosition
    new_thread: bool  # the thread has to be created first


class FileReader:
    """A file being read: its format's mapper and the position stored for it."""

    def __init__(
        self, path: Path, position: ReadPosition, stored: bytes | None, mapper: SessionMapper
    ) -> None:
        self.path = path
        self.position = position
        self.stored = stored  # the position as the log holds it now
        self.mapper = mapper
        self.new_thread = stored is None or ReadPosition.decode(stored) != position

    def read_batch(self) -> Batch | None:
        """The next complete lines' observations, or ``None`` when there are none yet."""
        with self.path.open("rb") as stream:
            if not self.position.same_file(stream):
                raise FileReplaced(str(self.path))
            stream.seek(self.position.offset)
            observations, end = self._read(stream)
            if end == self.position.offset:
                return None
            head = head_digest(stream, end)
        after = msgspec.structs.replace(self.position, offset=end, head=head)
        return Batch(observations, self.stored, after, self.new_thread)

    def _read(self, stream: BinaryIO) -> tuple[list[Observation], int]:
        observations: list[Observation] = []
        end = start = self.position.offset
        while len(observations) < MAX_OBSERVATIONS and end - start < MAX_BYTES:
            line = stream.readline()
            if not line.endswith(b"\n"):
                break  # the end, or a line still being written: it waits for its newline
            observations.extend(_feed(self.mapper, line, self.path, end))
            end += len(line)
        return observations, end

    def commit(self, batch: Batch) -> None:
        """The batch is stored: the log's position is now ``batch.after``."""
        self.position = batch.after
        self.stored = batch.after.encode()
        self.new_thread = False


def open_reader(
    path: Path, stored: bytes | None, formats: tuple[SessionFormat, ...], join: Join | None = None
) -> FileReader | None:
    """A reader for ``path`` from its stored position, or ``None`` when there is nothing to read.

    The same file, grown: its format's mapper is fed the lines already read
    (outputs dropped) and reading goes on. A new file, or one replaced or cut:
    read from the start into the next version's thread (a sub-agent's: into
    ``join``'s thread, marked with its call). ``None``: the file is
    as far as it was read, has no complete line yet, or is not a session.
    """
    old = ReadPosition.decode(stored) if stored is not None else None
    with path.open("rb") as stream:
        if old is not None and old.same_file(stream):
            known = {f.name: f for f in formats}.get(old.format)
            if known is None or os.fstat(stream.fileno()).st_size == old.offset:
                return None  # unchanged (a restart's catch-up): prime when it grows
            mapper = known.mapper(old.parent)
            _prime(stream, mapper, old.offset, path)
            return FileReader(path, old, stored, mapper)
        fmt = _sniff(stream, formats)
        if fmt is None:
            return None
        version = old.version + 1 if old is not None else 1
        thread = join.thread if join is not None else thread_id(fmt, path, version)
        parent = join.parent_call_id if join is not None else None
        inode = os.fstat(stream.fileno()).st_ino
        head = head_digest(stream, 0)
        position = ReadPosition(fmt.name, thread, version, 0, inode, head, parent)
    return FileReader(path, position, stored, fmt.mapper(parent))


def _sniff(stream: BinaryIO, formats: tuple[SessionFormat, ...]) -> SessionFormat | None:
    """The first format that recognises the file's start (once it has a complete line)."""
    stream.seek(0)
    head = stream.read(_SNIFF)
    if b"\n" not in head and len(head) < _SNIFF:
        return None  # not one complete line yet: decide when there is
    return next((f for f in formats if _sniffs(f, head)), None)


def _sniffs(fmt: SessionFormat, head: bytes) -> bool:
    try:
        return fmt.sniff(head)
    except Exception:  # a host's sniff that fails says no
        log.exception("toolview: watch: the %s format's sniff failed", fmt.name)
        return False


def _prime(stream: BinaryIO, mapper: SessionMapper, offset: int, path: Path) -> None:
    """Feed the lines before ``offset`` to ``mapper``, dropping what it makes."""
    stream.seek(0)
    done = 0
    while done < offset:
        line = stream.readline()
        _feed(mapper, line, path, done, quiet=True)
        done += len(line)


def _feed(
    mapper: SessionMapper, line: bytes, path: Path, at: int, *, quiet: bool = False
) -> list[Observation]:
    """The line's observations; a line the mapper refuses is said once and skipped."""
    if not line.strip():
        return []
    try:
        return mapper.feed_line(line)
    except Exception as exc:  # a malformed line, or a host's bug: the rest still reads
        if not quiet:
            log.warning("toolview: watch: %s, the line at byte %d: %s", path, at, exc)
        return []
