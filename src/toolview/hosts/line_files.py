"""A session file of one record a line, streamed through its host's mapper; files newest first.

Why a module of its own: every line-by-line reader (Copilot CLI, Cursor's
agent) reads its file the same way — each line mapped, a line it cannot read a
note where it was, an unreadable file a note, the mapper finished, its last
notes said — and lists its sessions newest first. One home for both, so a
fix to either reaches every reader.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from toolview.contract import Observation
from toolview.hosts.sessions import NotingMapper, SessionNote, file_lines, mapped_line

__all__ = ["FinishingMapper", "newest_first", "stream_file"]


class FinishingMapper(NotingMapper, Protocol):
    """A mapper told when its input ends (the open run closes)."""

    def finish(self) -> list[Observation]: ...  # pragma: no cover


def stream_file(
    mapper: FinishingMapper, path: Path, where: str
) -> Iterator[Observation | SessionNote]:
    """The observations of the file at ``path``, streamed, its notes said ``where``; a line
    that cannot be read is a ``SessionNote`` and the rest goes on. Never raises."""
    try:
        for number, line in file_lines(path):
            yield from mapped_line(mapper, line, f"{where} line {number}")
    except OSError as exc:
        yield SessionNote(f"{where}: cannot be read ({exc.strerror or exc})")
    yield from mapper.finish()
    yield from (SessionNote(f"{where}: {note}") for note in mapper.take_notes())


def newest_first(paths: Iterable[Path]) -> list[Path]:
    """The files among ``paths``, the last modified first (one gone meanwhile, last)."""
    return sorted((p for p in paths if p.is_file()), key=_mtime, reverse=True)


def _mtime(path: Path) -> tuple[float, str]:
    try:
        return path.stat().st_mtime, str(path)
    except OSError:
        return 0.0, str(path)
