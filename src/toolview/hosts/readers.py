"""The one interface a coding agent's reader implements, and where readers come from.

Why one small interface: ``show`` sniffs a file, ``sessions`` lists an agent's
sessions, ``show --follow`` maps a growing file line by line, and ``doctor``
counts the record types nobody maps — the same five things for every agent
(``Reader``). The built-in readers (Claude Code, Codex) are ``Reader``\\ s like
any other; a third party's comes through the Python entry-point group
``toolview.readers`` (docs/readers.md), with no change to toolview.

Plug-ins are found only when asked (``plugins``): ``importlib.metadata`` scans
every installed distribution, which ``show`` of observations never needs. A
plug-in that fails to import, or gives something that is not a ``Reader``, or
takes a built-in's name, is skipped with a line saying why — never a crash,
and never a reason to skip the others.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING, Final, Protocol

from toolview.contract import Observation
from toolview.hosts.sessions import SessionLineError, SessionNote, file_lines

if TYPE_CHECKING:  # a path is only passed through here: pathlib is imported by who makes one
    from pathlib import Path

__all__ = ["GROUP", "Reader", "SessionMapper", "lines_loader", "notes_of", "plugins"]

GROUP: Final = "toolview.readers"


class SessionMapper(Protocol):
    """A reader's sans-IO mapper: one line in, the observations it makes out.

    It may also have ``take_notes() -> list[str]``: what it left out since the
    last call (a record type it does not know, said once), shown as notes."""

    def feed_line(self, line: bytes) -> list[Observation]: ...  # pragma: no cover

    def finish(self) -> list[Observation]: ...  # pragma: no cover


@dataclass(frozen=True)
class Reader:
    """What toolview needs of a coding agent's sessions (the built-ins' and plug-ins')."""

    name: str
    """The ``--from`` name and the ``sessions`` AGENT column: ``claude-code``, ``codex``."""
    sniff: Callable[[bytes], bool]
    """Whether a file's first bytes (up to 64 KiB, the first line whole) are this agent's."""
    load: Callable[[Path], Iterator[object]]
    """A session file's observations and ``SessionNote``s, streamed, sub-agents marked."""
    mapper: Callable[[], SessionMapper]
    """A fresh mapper for one session read line by line (``show --follow``, standard input)."""
    files: Callable[[Path], list[Path]]
    """The main session files under a folder, newest first."""
    line_error: type[Exception]
    """What ``feed_line`` raises for a line it cannot read (``SessionLineError``)."""
    home: tuple[str, ...]
    """Where the agent keeps its sessions, under the user's home folder."""
    _: KW_ONLY
    label: str = ""
    """The agent's name for people (``Claude Code``); the ``name`` when empty."""
    record_type: Callable[[Mapping[str, object]], str | None] | None = None
    """The type of one decoded record, as ``maps`` names it (``doctor``); None: no type."""
    maps: frozenset[str] = frozenset()
    """Every record type this reader knows: maps, or skips by name on purpose."""
    split: Callable[[Path], list[tuple[str, float]]] | None = None
    """For a file holding many sessions (OpenCode's database): each session's id and last
    change (epoch seconds), so ``sessions`` lists them one by one; None: a file is one."""
    load_one: Callable[[Path, str], Iterator[object]] | None = None
    """With ``split``: one session of the file (``load``'s stream of it alone)."""
    records: Callable[[Path], Iterator[tuple[Mapping[str, object] | None, str]]] | None = None
    """For a file that is not lines (a database): each decoded record (None: undecodable)
    and where it is, for ``doctor``; None: the file's lines are its records."""
    verified: str = ""
    """The agent's version its declared record types (``maps``) were checked against."""

    @property
    def title(self) -> str:
        return self.label or self.name


def notes_of(mapper: SessionMapper) -> list[str]:
    """What ``mapper`` left out since last asked (its ``take_notes``, if it has one)."""
    take = getattr(mapper, "take_notes", None)
    if take is None:
        return []
    return [str(note) for note in take()]


def lines_loader(mapper: Callable[[], SessionMapper]) -> Callable[[Path], Iterator[object]]:
    """A ``load`` for a reader whose sessions are one file each, read through ``mapper``: a
    line it cannot read (``SessionLineError``) and what it leaves out become notes."""

    def load(path: Path) -> Iterator[object]:
        session = mapper()
        for number, line in file_lines(path):
            try:
                yield from session.feed_line(line)
            except SessionLineError as exc:
                yield SessionNote(f"{path.name} line {number}: {exc.reason}")
            for note in notes_of(session):
                yield SessionNote(f"{path.name} line {number}: {note}")
        yield from session.finish()

    return load


_LOADED: dict[frozenset[str], tuple[tuple[Reader, ...], tuple[str, ...]]] = {}


def plugins(taken: frozenset[str]) -> tuple[tuple[Reader, ...], tuple[str, ...]]:
    """The readers installed through ``toolview.readers`` and the lines saying which were
    skipped and why; ``taken`` are the built-ins' names (a plug-in cannot replace one).
    Looked for once (not ``functools.cache``: ``show`` does not otherwise import it)."""
    if taken not in _LOADED:
        _LOADED[taken] = _load(taken)
    return _LOADED[taken]


def _load(taken: frozenset[str]) -> tuple[tuple[Reader, ...], tuple[str, ...]]:
    if not _declared():
        return (), ()
    from importlib.metadata import entry_points

    found: list[Reader] = []
    problems: list[str] = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            reader = _reader(point.load())
        except Exception as exc:  # a broken plug-in is one line, never the others' end
            problems.append(f"reader plug-in {point.name!r} ({point.value}) skipped: {exc!r}")
            continue
        names = taken | {other.name for other in found}
        if reader.name in names:
            problems.append(f"reader plug-in {point.name!r} skipped: {reader.name!r} is taken")
        else:
            found.append(reader)
    return tuple(found), tuple(problems)


def _declared() -> bool:
    """Whether an installed distribution may declare a ``toolview.readers`` entry point: a
    look at each ``entry_points.txt`` on ``sys.path`` (~2 ms of CPU) first, for
    ``importlib.metadata`` costs ~40 ms to import and reads every distribution's metadata
    — ``sessions`` and ``doctor`` pay that only when a plug-in is there."""
    marker = GROUP.encode()
    for folder in sys.path:
        try:
            entries = os.scandir(folder or ".")
        except OSError:  # a missing folder; or a zip, an egg: importlib.metadata looks in it
            if os.path.isfile(folder):
                return True
            continue
        with entries:
            for entry in entries:
                if entry.name.endswith((".dist-info", ".egg-info")) and _mentions(
                    os.path.join(entry.path, "entry_points.txt"), marker
                ):
                    return True
    return False


def _mentions(path: str, marker: bytes) -> bool:
    try:
        with open(path, "rb") as stream:
            return marker in stream.read()
    except OSError:
        return False


def _reader(loaded: object) -> Reader:
    """An entry point's object as a ``Reader``: one, or a callable that makes one."""
    made = loaded() if callable(loaded) and not isinstance(loaded, Reader) else loaded
    if not isinstance(made, Reader):
        raise TypeError(f"gave a {type(made).__name__}, not a toolview Reader")
    return made
