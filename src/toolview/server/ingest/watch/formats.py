"""Which session formats ``serve --watch`` reads, and the thread a file goes to.

Why a table: the watcher only needs, per format, a test of a file's first
bytes (``sniff``), a mapper fed one line at a time (the hosts' sans-IO
mappers), and the thread id prefix. Claude Code, Codex and Gemini CLI are the
hosts' (``toolview.hosts.claude_code`` / ``.codex`` / ``.gemini``); toolview's own observation
lines (what ``show --json`` and producers write) are read as they are.
A folder given as Claude Code's or Codex's puts that format first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import msgspec

from toolview.contract import Observation, decode_observation
from toolview.hosts import claude_code, codex, copilot, cursor, gemini, qwen
from toolview.hosts.claude_code.stored import StoredOutputs
from toolview.hosts.sessions import session_id
from toolview.server.params import THREAD_ID

__all__ = [
    "CLAUDE_CODE",
    "CODEX",
    "COPILOT",
    "CURSOR",
    "FORMATS",
    "GEMINI",
    "QWEN",
    "TOOLVIEW",
    "ClaudeCodeLines",
    "CodexLines",
    "CopilotLines",
    "CursorLines",
    "GeminiLines",
    "ObservationLines",
    "QwenLines",
    "SessionFormat",
    "SessionMapper",
    "formats_for",
    "thread_id",
]

_ROOM: Final = 58  # of a thread id's 64 characters: the rest is for a version suffix

log = logging.getLogger("toolview.watch")


class SessionMapper(Protocol):
    """A host's sans-IO mapper, as the watcher drives it."""

    def feed_line(self, line: bytes) -> list[Observation]:
        """The observations one complete line makes (raises on a malformed line)."""
        ...

    def links(self) -> list[tuple[str, str]]:
        """Sub-agents it saw spawned since the last call: ``(child thread id, call id)``."""
        ...

    def finish(self) -> list[Observation]:
        """What the end of input gives (the held usage, the run's end); a line fed after
        it reopens the run, without giving again what this gave (``watch_idle``)."""
        ...


@dataclass(frozen=True)
class SessionFormat:
    """One format: its name, thread id prefix, sniff and mapper factory."""

    name: str
    prefix: str
    sniff: Callable[[bytes], bool]
    # a mapper for the file at this path; the call that ran it, if it is a sub-agent's
    mapper: Callable[[Path, str | None], SessionMapper]


class _Spawning(Protocol):
    """A mapper whose sub-agents are linked by the spawns it saw (Codex's, Gemini CLI's)."""

    subagents: list[tuple[str, str]]

    def feed_line(self, line: bytes) -> list[Observation]: ...  # pragma: no cover

    def finish(self) -> list[Observation]: ...  # pragma: no cover

    def take_notes(self) -> list[str]: ...  # pragma: no cover


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

    def links(self) -> list[tuple[str, str]]:
        """None: a toolview file names no other file."""
        return []

    def finish(self) -> list[Observation]:
        """Nothing: a toolview file says its runs' ends itself."""
        return []


def _sniff_observations(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0]
    try:
        decode_observation(first)
    except ValueError:
        return False
    return True


class ClaudeCodeLines:
    """Claude Code's mapper as the watcher drives it.

    Its stored long outputs are read from the session's own ``tool-results/``
    (a sub-agent's file shares its session's); what it leaves out of a record
    is said as the loader says it; the sub-agent links it collects for the
    loader are dropped (a live sub-agent's file is linked by its meta file,
    ``watch_subagents``).
    """

    def __init__(self, path: Path, parent_call_id: str | None) -> None:
        session = path.parent.parent if path.parent.name == "subagents" else path.with_suffix("")
        self.path = path
        self.mapper = claude_code.ClaudeCodeMapper(
            parent_call_id=parent_call_id, read_stored=StoredOutputs(session)
        )

    def feed_line(self, line: bytes) -> list[Observation]:
        """The line's observations (``SessionLineError`` when it is malformed)."""
        out = self.mapper.feed_line(line)
        for note in self.mapper.take_notes():
            log.warning("toolview: watch: %s: %s", self.path, note)
        self.mapper.take_subagents()
        return out

    def links(self) -> list[tuple[str, str]]:
        """None: Claude Code's sub-agent files are linked by their meta files."""
        return []

    def finish(self) -> list[Observation]:
        """The last turn's usage and the run's end (the loader's links dropped, as above)."""
        out = self.mapper.finish()
        self.mapper.take_notes()
        self.mapper.take_subagents()
        return out


class CodexLines:
    """Codex's mapper as the watcher drives it: its notes said, its spawns handed on.

    A sub-agent's rollout names only its parent thread; the spawning call is
    in the parent's records, so the parent's mapper's spawns are the links.
    """

    def __init__(
        self, path: Path, parent_call_id: str | None, mapper: _Spawning | None = None
    ) -> None:
        self.path = path
        self.mapper: _Spawning = mapper or codex.CodexMapper(parent_call_id=parent_call_id)
        self._told = 0

    def feed_line(self, line: bytes) -> list[Observation]:
        """The line's observations (``SessionLineError`` when it is malformed)."""
        out = self.mapper.feed_line(line)
        for note in self.mapper.take_notes():
            log.warning("toolview: watch: %s: %s", self.path, note)
        return out

    def finish(self) -> list[Observation]:
        """Calls answered from their end records, the open turn's end."""
        out = self.mapper.finish()
        self.mapper.take_notes()
        return out

    def links(self) -> list[tuple[str, str]]:
        """The spawns seen since the last call."""
        new = self.mapper.subagents[self._told :]
        self._told = len(self.mapper.subagents)
        return list(new)


class GeminiLines(CodexLines):
    """Gemini CLI's mapper as the watcher drives it: as Codex's, its notes said (a rewind, a
    replaced history), its spawns (agent id, call) handed on to join the sub-agents' chats."""

    def __init__(self, path: Path, parent_call_id: str | None) -> None:
        super().__init__(path, parent_call_id, gemini.GeminiMapper(parent_call_id=parent_call_id))


class QwenLines(CodexLines):
    """Qwen Code's mapper as the watcher drives it: its notes said (system records it does
    not know); a sub-agent's chat is linked by its meta file (as Claude Code's), marked here."""

    def __init__(self, path: Path, parent_call_id: str | None) -> None:
        super().__init__(path, parent_call_id, qwen.QwenMapper(parent_call_id=parent_call_id))


class CopilotLines(CodexLines):
    """Copilot CLI's mapper as the watcher drives it: its notes said (event types it does
    not know); a sub-agent's events are in its parent's file, nested there: nothing to link."""

    def __init__(self, path: Path, parent_call_id: str | None) -> None:
        super().__init__(path, parent_call_id, copilot.CopilotMapper())


class CursorLines(CodexLines):
    """A saved Cursor agent stream-json run as the watcher drives it: its notes said (event
    types it does not know); the stream names no sub-agents."""

    def __init__(self, path: Path, parent_call_id: str | None) -> None:
        super().__init__(path, parent_call_id, cursor.CursorMapper())


CLAUDE_CODE: Final = SessionFormat("claude-code", "claude", claude_code.sniff, ClaudeCodeLines)
TOOLVIEW: Final = SessionFormat(
    "toolview", "", _sniff_observations, lambda _path, parent: ObservationLines(parent)
)
CODEX: Final = SessionFormat("codex", "codex", codex.sniff, CodexLines)
GEMINI: Final = SessionFormat("gemini", "gemini", gemini.sniff, GeminiLines)
QWEN: Final = SessionFormat("qwen", "qwen", qwen.sniff, QwenLines)
COPILOT: Final = SessionFormat("copilot", "copilot", copilot.sniff, CopilotLines)
CURSOR: Final = SessionFormat("cursor", "cursor", cursor.sniff, CursorLines)
FORMATS: Final = (CLAUDE_CODE, CODEX, GEMINI, QWEN, COPILOT, CURSOR, TOOLVIEW)


def formats_for(
    preferred: str | None, formats: tuple[SessionFormat, ...] = FORMATS
) -> tuple[SessionFormat, ...]:
    """The ``formats``, the ``preferred`` one (a folder's own) first."""
    return tuple(sorted(formats, key=lambda f: f.name != preferred))


def thread_id(fmt: SessionFormat, path: Path, version: int) -> str:
    """The thread a session file feeds: ``<prefix>-<session id>``, ``.N`` for version N ≥ 2.

    The session id is ``hosts.sessions.session_id``'s (the one ``show`` looks
    sessions up by), spelled as a reachable thread id.
    """
    session = session_id(path)
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", f"{fmt.prefix}-{session}" if fmt.prefix else session)
    base = spelled[:_ROOM].strip(".") or "session"
    chosen = base if version == 1 else f"{base}.{version}"
    return chosen if THREAD_ID.fullmatch(chosen) else f"session.{version}"
