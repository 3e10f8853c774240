"""One watched file: its mapper, its read position, and the next batch read from it.

Why sans-asyncio: reading and mapping are blocking work run in a worker
thread (``watch`` awaits them), and each batch is handed back *unstored*: the
watcher stores the observations and the new position in one atomic write,
then ``commit``s. The mapper's state is not stored: a restarted server feeds
the file's lines up to the stored offset through a fresh mapper again
(``watch_open``), outputs dropped — the mappers are deterministic, so it is
back where it was, with no copy of a host's internals in the log.

A file that stays idle is ``finish``ed (``watch_idle``): the mapper's end
(the held usage, the run's end) stored with a ``finished`` position; lines
that come after it reopen the run in the mapper itself.

Memory is bounded by the largest line: lines are read one at a time, a
batch stops at ``MAX_OBSERVATIONS`` or ``MAX_BYTES``, and a last line
without its newline (half-written) is left for the next read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

import msgspec

from toolview.contract import Observation
from toolview.server.ingest.watch.formats import SessionMapper
from toolview.server.ingest.watch.position import ReadPosition, head_digest

__all__ = [
    "MAX_BYTES",
    "MAX_OBSERVATIONS",
    "Batch",
    "FileReader",
    "FileReplaced",
    "Join",
    "feed",
]

MAX_OBSERVATIONS: Final = 500  # per batch: a live follower sees a long catch-up arrive in steps
MAX_BYTES: Final = 4 * 1024 * 1024  # of lines per batch (one line may be longer)

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
    links: list[tuple[str, str]]  # sub-agents seen spawned: (child thread id, call id)


class FileReader:
    """A file being read: its format's mapper and the position stored for it."""

    def __init__(
        self,
        path: Path,
        position: ReadPosition,
        stored: bytes | None,
        mapper: SessionMapper,
        links: list[tuple[str, str]] | None = None,
    ) -> None:
        self.path = path
        self.position = position
        self.stored = stored  # the position as the log holds it now
        self.mapper = mapper
        self.new_thread = stored is None or ReadPosition.decode(stored) != position
        self._links = links or []  # seen while priming

    def take_links(self) -> list[tuple[str, str]]:
        """The sub-agent links seen while the lines already read were fed again."""
        links, self._links = self._links, []
        return links

    def read_batch(self, until: int | None = None) -> Batch | None:
        """The next complete lines' observations, or ``None`` when there are none yet.

        ``until``: stop at that offset (``toolview sync`` resending the batch a
        kill interrupted, byte for byte, though the file grew meanwhile).
        """
        with self.path.open("rb") as stream:
            if not self.position.same_file(stream):
                raise FileReplaced(str(self.path))
            stream.seek(self.position.offset)
            observations, end = self._read(stream, until)
            if end == self.position.offset:
                return None
            head = head_digest(stream, end)
        after = msgspec.structs.replace(self.position, offset=end, head=head, finished=False)
        return Batch(observations, self.stored, after, self.new_thread, self.mapper.links())

    def finish(self) -> Batch | None:
        """The mapper's ``finish`` (the file stayed idle: ``watch_idle``), or ``None`` if done.

        The move marks the position ``finished``, stored with what ``finish``
        gave, so a restarted server finishes its primed mapper too and the
        next lines (the run reopened) follow on without a repeat.
        """
        if self.position.finished:
            return None
        after = msgspec.structs.replace(self.position, finished=True)
        observations = self.mapper.finish()
        return Batch(observations, self.stored, after, self.new_thread, self.mapper.links())

    def _read(self, stream: BinaryIO, until: int | None) -> tuple[list[Observation], int]:
        observations: list[Observation] = []
        end = start = self.position.offset
        stop = MAX_BYTES if until is None else until - start
        while end - start < stop and (until is not None or len(observations) < MAX_OBSERVATIONS):
            line = stream.readline()
            if not line.endswith(b"\n"):
                break  # the end, or a line still being written: it waits for its newline
            observations.extend(feed(self.mapper, line, self.path, end))
            end += len(line)
        return observations, end

    def adopt(self, batch: Batch, stored: bytes | None) -> bool:
        """Another server stored the file up to ``stored`` meanwhile: catch the mapper up to it.

        The mapper has read ``batch`` (unstored here); when the log holds the
        same file at or past the batch's end, the lines between are fed (their
        output dropped) and reading goes on from there — no new pass over the
        whole file each time two servers sharing a log take turns. ``False``:
        it cannot (another version, an earlier offset): open the file again.
        """
        theirs = ReadPosition.decode(stored) if stored is not None else None
        ours = batch.after
        if theirs is None or (theirs.thread, theirs.inode) != (ours.thread, ours.inode):
            return False
        if theirs.offset < ours.offset or theirs.version != ours.version:
            return False
        with self.path.open("rb") as stream:
            if not theirs.same_file(stream):
                return False
            stream.seek(ours.offset)
            done = ours.offset
            while done < theirs.offset:
                line = stream.readline()
                feed(self.mapper, line, self.path, done, quiet=True)
                done += len(line)
        if theirs.finished and not ours.finished:
            self.mapper.finish()  # theirs stored it: this mapper ends where theirs did
        self._links += self.mapper.links()
        self.position, self.stored, self.new_thread = theirs, stored, False
        return True

    def commit(self, batch: Batch) -> None:
        """The batch is stored: the log's position is now ``batch.after``."""
        self.position = batch.after
        self.stored = batch.after.encode()
        self.new_thread = False


def feed(
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
