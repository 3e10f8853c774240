"""Opening a watched file: go on from its stored position, or start it as new.

Why apart from the reader: this is where a restart is decided — the same
file grown (its format's mapper fed the lines already read, outputs dropped),
a new one or one replaced (its format sniffed, a new thread version), or
nothing to read yet — while ``watch_reader`` reads on from there.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import BinaryIO, Final

from toolview.server.ingest.watch.formats import SessionFormat, SessionMapper, thread_id
from toolview.server.ingest.watch.position import ReadPosition, head_digest
from toolview.server.ingest.watch.reader import FileReader, Join, feed

__all__ = ["open_reader"]

_SNIFF: Final = 64 * 1024

log = logging.getLogger("toolview.watch")


def open_reader(
    path: Path, stored: bytes | None, formats: tuple[SessionFormat, ...], join: Join | None = None
) -> FileReader | None:
    """A reader for ``path`` from its stored position, or ``None`` when there is nothing to read.

    The same file, grown: its format's mapper is fed the lines already read
    (outputs dropped) and reading goes on. A new file, or one replaced or cut:
    read from the start into the next version's thread (a sub-agent's: into
    ``join``'s thread, marked with its call). ``None``: the file is as far
    as it was read and finished, has no complete line yet, or is not a
    session. (Read to its end but not finished: a reader all the same, for
    the idle flush to finish.)
    """
    old = ReadPosition.decode(stored) if stored is not None else None
    with path.open("rb") as stream:
        if old is not None and old.same_file(stream):
            known = {f.name: f for f in formats}.get(old.format)
            if known is None or _idle_done(stream, old):
                return None  # unchanged and finished (a restart's catch-up): prime when it grows
            mapper = known.mapper(path, old.parent)
            _prime(stream, mapper, old.offset, path)
            if old.finished:
                mapper.finish()  # stored before: the mapper ends where the log does
            return FileReader(path, old, stored, mapper, mapper.links())
        fmt = _sniff(stream, formats)
        if fmt is None:
            return None
        version = old.version + 1 if old is not None else 1
        thread = join.thread if join is not None else thread_id(fmt, path, version)
        parent = join.parent_call_id if join is not None else None
        inode = os.fstat(stream.fileno()).st_ino
        head = head_digest(stream, 0)
        position = ReadPosition(fmt.name, thread, version, 0, inode, head, parent)
    return FileReader(path, position, stored, fmt.mapper(path, parent))


def _idle_done(stream: BinaryIO, old: ReadPosition) -> bool:
    """Nothing left to do: read to its end, and that end already finished."""
    return old.finished and os.fstat(stream.fileno()).st_size == old.offset


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
        feed(mapper, line, path, done, quiet=True)
        done += len(line)
