"""The coding agents whose session files ``show``, ``show --follow`` and ``sessions`` read.

Why a registry of its own beside ``cli.sources``: a session is read from a
PATH, not from bytes — its sub-agents live in files beside it, and it is
read streaming (``load_observations`` yields as it reads), so memory holds
the largest record, never the session. Each host is imported when first
used (``host``), so a host that is absent or broken stops none of the others
and ``show`` on observations never pays for one.

A host's ``SessionNote`` (a line it could not read) becomes a ``Note``: a
visible note in the thread, as a broken line of observations is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from toolview.contract import Observation
from toolview.hosts.cut_lines import with_cuts

if TYPE_CHECKING:  # a path is only passed through here: pathlib is imported by who makes one
    from pathlib import Path

__all__ = [
    "HOSTS",
    "Note",
    "SessionHost",
    "SessionMapper",
    "as_items",
    "host",
    "map_lines",
    "session_hosts",
]


@dataclass(frozen=True)
class Note:
    """A line a host could not read (a session's ``SessionNote``): shown as a note."""

    text: str

    def __str__(self) -> str:
        return self.text


class SessionMapper(Protocol):
    """A host's sans-IO mapper: one line in, the observations it makes out."""

    def feed_line(self, line: bytes) -> list[Observation]: ...  # pragma: no cover

    def finish(self) -> list[Observation]: ...  # pragma: no cover


@dataclass(frozen=True)
class SessionHost:
    """What the commands need of a coding agent's sessions."""

    name: str
    """The ``--from`` name: ``claude-code``, ``codex`` or ``gemini``."""
    sniff: Callable[[bytes], bool]
    load: Callable[[Path], Iterator[object]]
    """``load_observations``: observations and ``SessionNote``s, streamed, sub-agents marked."""
    mapper: Callable[[], SessionMapper]
    files: Callable[[Path], list[Path]]
    """``session_files``: the main session files under a folder, newest first."""
    line_error: type[Exception]
    """``SessionLineError``: what ``feed_line`` raises for a line it cannot read."""
    home: tuple[str, ...]
    """Where the agent keeps its sessions, under the user's home folder."""


def _claude_code() -> SessionHost:
    from toolview.hosts import claude_code as found
    from toolview.hosts.sessions import SessionLineError

    return SessionHost(
        "claude-code",
        found.sniff,
        found.load_observations,
        found.ClaudeCodeMapper,
        found.session_files,
        SessionLineError,
        (".claude", "projects"),
    )


def _codex() -> SessionHost:
    from toolview.hosts import codex as found
    from toolview.hosts.sessions import SessionLineError

    return SessionHost(
        "codex",
        found.sniff,
        found.load_observations,
        found.CodexMapper,
        found.session_files,
        SessionLineError,
        (".codex", "sessions"),
    )


def _gemini() -> SessionHost:
    from toolview.hosts import gemini as found
    from toolview.hosts.sessions import SessionLineError

    return SessionHost(
        "gemini",
        found.sniff,
        found.load_observations,
        found.GeminiMapper,
        found.session_files,
        SessionLineError,
        (".gemini", "tmp"),
    )


def _opencode() -> SessionHost:
    from toolview.hosts import opencode as found
    from toolview.hosts.sessions import SessionLineError

    return SessionHost(
        "opencode",
        found.sniff,
        found.load_observations,
        _NoLines,
        found.session_files,
        SessionLineError,
        (".local", "share", "opencode"),
    )


class _NoLines:
    """OpenCode's sessions are a database, never lines: a stream said to be one (standard
    input) is a note per line, not a crash."""

    def feed_line(self, line: bytes) -> list[Observation]:
        from toolview.hosts.sessions import SessionLineError

        raise SessionLineError("OpenCode's database is read from its file, not from a stream")

    def finish(self) -> list[Observation]:
        return []


HOSTS: Final[dict[str, Callable[[], SessionHost]]] = {
    "claude-code": _claude_code,
    "codex": _codex,
    "gemini": _gemini,
    "opencode": _opencode,
}


def host(name: str) -> SessionHost | None:
    """The host called ``name``, imported now; None if this installation cannot import it."""
    factory = HOSTS.get(name)
    try:
        return None if factory is None else factory()
    except ImportError:
        return None


def session_hosts() -> list[SessionHost]:
    """Every host this installation has."""
    return [found for name in HOSTS if (found := host(name)) is not None]


def as_items(records: Iterable[object]) -> Iterator[Observation | Note]:
    """A host's stream as ``show``'s items: observations as they are, a note as a ``Note``."""
    for record in records:
        if isinstance(record, Observation):
            yield record
        else:  # a SessionNote: a line the host could not read, said where it was
            yield Note(str(getattr(record, "text", record)))


def map_lines(
    found: SessionHost, lines: Iterable[bytes], *, finish: bool = True
) -> Iterator[Observation | Note]:
    """The items of a session read line by line (standard input, a followed file): no
    sub-agent files beside it to read, so only the session's own records.

    ``finish=False`` for a file followed until idle: the session has not ended
    because we stopped watching it, so the host is not told it did (its
    ``finish`` would close the calls still open as cut off)."""
    mapper = found.mapper()
    number = 0
    for line in lines:
        number += 1  # not enumerate: it keeps its last tuple, and so the line, alive
        if not line or line.isspace():
            continue
        try:
            observations = with_cuts(mapper.feed_line(line), line)
        except found.line_error as exc:
            yield Note(f"line {number} skipped: {exc}")
            continue
        del line
        yield from observations
    if finish:
        yield from mapper.finish()
