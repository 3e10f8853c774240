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

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Final

from toolview.contract import Observation
from toolview.hosts.cut_lines import with_cuts
from toolview.hosts.readers import Reader, SessionMapper, notes_of, plugins

__all__ = [
    "HOSTS",
    "Note",
    "Reader",
    "SessionHost",
    "SessionMapper",
    "as_items",
    "host",
    "host_names",
    "map_lines",
    "plugin_problems",
    "plugin_readers",
    "session_hosts",
]


@dataclass(frozen=True)
class Note:
    """A line a host could not read (a session's ``SessionNote``): shown as a note."""

    text: str

    def __str__(self) -> str:
        return self.text


SessionHost = Reader  # the registry's first name: an entry built as one still works


def _built_in(
    name: str, module: str, mapper: str, home: tuple[str, ...], label: str
) -> Callable[[], Reader]:
    """The factory of the reader in ``toolview.hosts.<module>``: imported when first called.

    A host that declares the record types it knows (``record_type``, ``KNOWN_RECORDS``)
    is checked by ``doctor``; one that does not yet is listed there as not checked.
    """

    def make() -> Reader:
        found = importlib.import_module(f"toolview.hosts.{module}")
        from toolview.hosts.sessions import SessionLineError

        return Reader(
            name,
            found.sniff,
            found.load_observations,
            getattr(found, mapper),
            found.session_files,
            SessionLineError,
            home,
            label=label,
            record_type=getattr(found, "record_type", None),
            maps=getattr(found, "KNOWN_RECORDS", frozenset()),
            verified=getattr(found, "VERIFIED", ""),
        )

    return make


def _opencode() -> Reader:
    """OpenCode's reader: its sessions are a database, read from the file only, listed and
    opened one session at a time."""
    made = _built_in(
        "opencode", "opencode", "OpenCodeMapper", (".local", "share", "opencode"), "OpenCode"
    )
    from toolview.hosts.opencode import load_session, part_records, top_sessions

    return replace(
        made(), mapper=_NoLines, split=top_sessions, load_one=load_session, records=part_records
    )


class _NoLines:
    """OpenCode's sessions are a database, never lines: a stream said to be one (standard
    input) is a note per line, not a crash."""

    def feed_line(self, line: bytes) -> list[Observation]:
        from toolview.hosts.sessions import SessionLineError

        raise SessionLineError("OpenCode's database is read from its file, not from a stream")

    def finish(self) -> list[Observation]:
        return []


HOSTS: Final[dict[str, Callable[[], Reader]]] = {
    "claude-code": _built_in(
        "claude-code", "claude_code", "ClaudeCodeMapper", (".claude", "projects"), "Claude Code"
    ),
    "codex": _built_in("codex", "codex", "CodexMapper", (".codex", "sessions"), "Codex"),
    "gemini": _built_in("gemini", "gemini", "GeminiMapper", (".gemini", "tmp"), "Gemini CLI"),
    "qwen": _built_in("qwen", "qwen", "QwenMapper", (".qwen", "projects"), "Qwen Code"),
    "opencode": _opencode,
    "copilot": _built_in(
        "copilot", "copilot", "CopilotMapper", (".copilot", "session-state"), "Copilot CLI"
    ),
    "cursor": _built_in(
        "cursor", "cursor", "CursorMapper", (".cursor", "projects"), "Cursor agent"
    ),
}
"""The built-in readers, each imported when first used; plug-ins come after them."""


def host(name: str) -> Reader | None:
    """The reader called ``name`` (a built-in imported now, else a plug-in); None if this
    installation has none it can import."""
    factory = HOSTS.get(name)
    if factory is None:
        return next((found for found in _plugins() if found.name == name), None)
    try:
        return factory()
    except ImportError:
        return None


def session_hosts() -> list[Reader]:
    """Every reader this installation has: the built-ins, then the plug-ins."""
    return [found for name in HOSTS if (found := host(name)) is not None] + plugin_readers()


def plugin_readers() -> list[Reader]:
    """The readers installed through the ``toolview.readers`` entry points."""
    return list(_plugins())


def host_names() -> Iterator[str]:
    """Every reader's name, the built-ins' first: the plug-ins are looked for only when
    the built-ins' are not enough (a caller that stops early never pays for them)."""
    yield from HOSTS
    yield from (found.name for found in _plugins())


def plugin_problems() -> tuple[str, ...]:
    """The lines saying which reader plug-ins were skipped, and why."""
    return plugins(frozenset(HOSTS))[1]


_SAID: list[bool] = []


def _plugins() -> tuple[Reader, ...]:
    """The plug-ins (``plugins`` looks for them once); each one skipped is said on stderr,
    once."""
    if not _SAID:
        _SAID.append(True)
        for problem in plugin_problems():
            print(f"toolview: {problem}", file=sys.stderr)
    return plugins(frozenset(HOSTS))[0]


def as_items(records: Iterable[object]) -> Iterator[Observation | Note]:
    """A reader's stream as ``show``'s items: observations as they are, a note as a ``Note``."""
    for record in records:
        if isinstance(record, Observation):
            yield record
        else:  # a SessionNote: a line the reader could not read, said where it was
            yield Note(str(getattr(record, "text", record)))


def map_lines(
    found: Reader, lines: Iterable[bytes], *, finish: bool = True
) -> Iterator[Observation | Note]:
    """The items of a session read line by line (standard input, a followed file): no
    sub-agent files beside it to read, so only the session's own records.

    What the mapper leaves out (a record type it does not know) is a note, as in a file
    read whole. ``finish=False`` for a file followed until idle: the session has not ended
    because we stopped watching it, so the reader is not told it did (its ``finish``
    would close the calls still open as cut off)."""
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
        yield from (Note(f"line {number}: {note}") for note in notes_of(mapper))
    if finish:
        yield from mapper.finish()
