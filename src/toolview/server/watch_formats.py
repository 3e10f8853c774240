"""Which session formats ``serve --watch`` reads, and the thread a file goes to.

Why a table: the watcher only needs, per format, a test of a file's first
bytes (``sniff``), a mapper fed one line at a time (the hosts' sans-IO
mappers), and the thread id prefix. Claude Code and Codex are the hosts'
(``toolview.hosts.claude_code`` / ``.codex``); toolview's own observation
lines (what ``show --json`` and producers write) are read as they are.
A folder given as Claude Code's or Codex's puts that format first.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import msgspec

from toolview.contract import Observation, decode_observation
from toolview.server.api import THREAD_ID

__all__ = [
    "FORMATS",
    "ObservationLines",
    "SessionFormat",
    "SessionMapper",
    "formats_for",
    "thread_id",
]

_UUID: Final = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\Z")
_ROOM: Final = 58  # of a thread id's 64 characters: the rest is for a version suffix


class SessionMapper(Protocol):
    """A host's sans-IO mapper, as the watcher drives it."""

    def feed_line(self, line: bytes) -> list[Observation]:
        """The observations one complete line makes (raises on a malformed line)."""
        ...


@dataclass(frozen=True)
class SessionFormat:
    """One format: its name, thread id prefix, sniff and mapper factory."""

    name: str
    prefix: str
    sniff: Callable[[bytes], bool]
    mapper: Callable[[str | None], SessionMapper]  # the sub-agent's parent call id, or None


class ObservationLines:
    """toolview's own format: each line is one observation."""

    def __init__(self, parent_call_id: str | None = None) -> None:
        self.parent_call_id = parent_call_id

    def feed_line(self, line: bytes) -> list[Observation]:
        """The line's observation (``ObservationError`` when it is not one).

        Read as a sub-agent's file, an observation without a mark of its own
        gets the mark of the call that ran the sub-agent.
        """
        observation = decode_observation(line)
        if self.parent_call_id is not None and observation.parent_call_id is msgspec.UNSET:
            observation = msgspec.structs.replace(observation, parent_call_id=self.parent_call_id)
        return [observation]


def _sniff_observations(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0]
    try:
        decode_observation(first)
    except ValueError:
        return False
    return True


def _host(module: str, name: str, prefix: str, mapper: str) -> SessionFormat | None:
    """A host's format, if that host is installed in this toolview."""
    try:
        host: Any = importlib.import_module(module)
    except ImportError:
        return None
    make = getattr(host, mapper)
    return SessionFormat(name, prefix, host.sniff, lambda parent: make(parent_call_id=parent))


TOOLVIEW: Final = SessionFormat("toolview", "", _sniff_observations, ObservationLines)
FORMATS: Final = tuple(
    f
    for f in (
        _host("toolview.hosts.claude_code", "claude-code", "claude", "ClaudeCodeMapper"),
        _host("toolview.hosts.codex", "codex", "codex", "CodexMapper"),
        TOOLVIEW,
    )
    if f is not None
)


def formats_for(
    preferred: str | None, formats: tuple[SessionFormat, ...] = FORMATS
) -> tuple[SessionFormat, ...]:
    """The ``formats``, the ``preferred`` one (a folder's own) first."""
    return tuple(sorted(formats, key=lambda f: f.name != preferred))


def thread_id(fmt: SessionFormat, path: Path, version: int) -> str:
    """The thread a session file feeds: ``<prefix>-<session id>``, ``.N`` for version N ≥ 2.

    The session id is the UUID a file name ends with (Claude Code names a
    file by it, Codex ends its rollout names with it), else the name itself;
    spelled as a reachable thread id either way.
    """
    match = _UUID.search(path.stem)
    session = match.group(0) if match else path.stem
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", f"{fmt.prefix}-{session}" if fmt.prefix else session)
    base = spelled[:_ROOM].strip(".") or "session"
    chosen = base if version == 1 else f"{base}.{version}"
    return chosen if THREAD_ID.fullmatch(chosen) else f"session.{version}"
