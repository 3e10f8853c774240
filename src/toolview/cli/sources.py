"""Where ``toolview show`` reads a thread from: a map of source name → loader.

A source is a loader ``(data: bytes) -> list[Observation]`` with a
``sniff(data: bytes) -> bool`` beside it. Each host's pair is imported inside
a small function, when that source is first used, so a host that is absent
(or broken) cannot stop the others, and reading toolview's own observations
never pays for a host. Adding a source is one function and one line in
``SOURCES``; a coding agent's reader plug-in (``hosts.readers``) is a source
too, tried after the built-ins. The built-in ``toolview`` source is ``cli.jsonl``; the coding
agents' sessions (``claude-code``, ``codex``) are ``cli.session_hosts``.

``read_items`` is what ``show`` uses (``opened_items``: a path or ``-`` opened,
its head checked, then read so; ``share`` reads one session the same way):
observations (the ``toolview`` source) are read line by line as they come, and
so is a session (from its path, with its sub-agents' files; from standard
input, a line at a time through the host's mapper); a pi or MCP transcript is
read whole, as its loader needs.
An input whose format cannot be told is an error (``SourceError``), never a
page of "skipped" notes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from typing import BinaryIO, Final

from toolview.cli.inputs import (
    lines_after,
    open_input,
    path_arg,
    read_head,
    refuse_binary,
    strip_bom,
)
from toolview.cli.jsonl import (
    Item,
    load_toolview,
    meant_as_observations,
    read_toolview,
    sniff_toolview,
)
from toolview.cli.session_hosts import HOSTS, Reader, as_items, host, host_names, map_lines

__all__ = [
    "SOURCES",
    "UNKNOWN",
    "Source",
    "SourceError",
    "detect",
    "load",
    "opened_items",
    "read_items",
]


class SourceError(ValueError):
    """The input cannot be read as the named source; the message says why."""


@dataclass(frozen=True)
class Source:
    """A source's loader and its sniffer."""

    loader: Callable[[bytes], Sequence[Item]]
    sniff: Callable[[bytes], bool]


def _toolview() -> Source:
    return Source(load_toolview, sniff_toolview)


def _pi() -> Source:
    from toolview.hosts.pi import load_observations, sniff

    return Source(load_observations, sniff)


def _mcp() -> Source:
    from toolview.hosts.mcp import load_observations, sniff

    return Source(load_observations, sniff)


def _session(name: str) -> Callable[[], Source]:
    def source() -> Source:
        found = host(name)
        if found is None:
            raise ImportError(f"no {name} host")
        return _lines(found)

    return source


def _lines(found: Reader) -> Source:
    """A reader as a source: its input read line by line through its mapper."""
    return Source(lambda data: list(map_lines(found, data.split(b"\n"))), found.sniff)


SOURCES: Final[dict[str, Callable[[], Source]]] = {
    "toolview": _toolview,
    "claude-code": _session("claude-code"),
    "codex": _session("codex"),
    "gemini": _session("gemini"),
    "qwen": _session("qwen"),
    "opencode": _session("opencode"),
    "copilot": _session("copilot"),
    "cursor": _session("cursor"),
    "pi": _pi,
    "mcp": _mcp,
}
UNKNOWN: Final = (
    "cannot tell the input's format: it is none of toolview observations, a Claude Code or "
    "Codex session, a pi session or capture, stored MCP results; name it with --from"
)


def load(data: bytes, source: str = "auto") -> list[Item]:
    """The items of ``data`` read as ``source`` (``auto`` detects it; ``SourceError`` if it
    cannot)."""
    name = detect(data) if source == "auto" else source
    if name is None:
        raise SourceError(UNKNOWN)
    found = _resolve(name)
    if found is None and name not in SOURCES:
        raise SourceError(f"unknown source {name!r}; choose from {', '.join(SOURCES)}")
    if found is None:
        raise SourceError(f"the {name!r} source is not available in this installation")
    try:
        return list(found.loader(data))
    except SourceError:
        raise
    except Exception as exc:  # a host's own format error: say it, don't crash
        raise SourceError(f"cannot read the input as {name}: {exc}") from None


def read_items(
    head: bytes, rest: BinaryIO, source: str = "auto", path: str | None = None
) -> Iterable[Item]:
    """The items of the input that starts with ``head`` (``inputs.read_head``) and goes on in
    ``rest`` (the file at ``path``, if it is one): lazily when it is observations or a
    session; else read whole and loaded.

    Observations and sessions are told from ``head`` alone, exactly as from the
    whole input: their sniffers look at the first lines within ``HEAD_BYTES``,
    and ``head`` holds the first line whole, or ``HEAD_BYTES``, or the whole input.
    """
    name = _detect_head(head) if source == "auto" else source
    if name == "toolview":
        return read_toolview(lines_after(head, rest))
    data = None
    if name is None:  # a pi or MCP input, or a reader plug-in's: told from the whole input
        data = head + rest.read()
        name = detect(data)
    session = None if name is None or name in SOURCES.keys() - HOSTS.keys() else host(name)
    if session is not None:
        if path is not None:  # its sub-agents' files are beside it: the host reads them too
            return as_items(session.load(path_arg(path)))
        return map_lines(session, lines_after(head, rest) if data is None else data.split(b"\n"))
    return load(head + rest.read() if data is None else data, name or "auto")


def _detect_head(head: bytes) -> str | None:
    """``toolview`` or a built-in session reader, as the first lines tell; None: read more
    to tell (a pi or MCP file is told from the whole input, and so, after them, is a reader
    plug-in's: ``detect``)."""
    if sniff_toolview(head):
        return "toolview"
    return next((name for name in HOSTS if _sniffs(name, head)), None)


def detect(data: bytes) -> str | None:
    """The first source whose sniffer recognises ``data``; ``toolview`` for an input with
    nothing on it (an empty thread) or meant as observations (``meant_as_observations``);
    None when no source can read it."""
    if not data.strip():
        return "toolview"
    names = chain(SOURCES, (name for name in host_names() if name not in SOURCES))
    found = next((name for name in names if _sniffs(name, data)), None)
    return "toolview" if found is None and meant_as_observations(data) else found


def _sniffs(name: str, data: bytes) -> bool:
    found = _resolve(name)
    try:
        return found is not None and found.sniff(data)
    except Exception:  # a host's sniffer failing is its "no"
        return False


def _a_database(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a database a host reads (binary, yet read).

    SQLite's header is looked at first (every database a host reads is one): a text
    file never imports the database host, which ``show``'s start-up would pay for.
    """
    if not head.startswith(b"SQLite format 3\x00"):
        return False
    found = host("opencode")
    return found is not None and found.sniff(head)


def _resolve(name: str) -> Source | None:
    """The source called ``name``, its host imported (a reader plug-in's, if no built-in has
    that name); None if there is none or its import fails."""
    if name not in SOURCES:
        found = host(name)
        return None if found is None else _lines(found)
    try:
        return SOURCES[name]()
    except ImportError:
        return None


@contextmanager
def opened_items(path: str, source: str = "auto") -> Iterator[Iterable[Item]]:
    """The items of the file at ``path`` (``-``: standard input), open while in the ``with``.

    Binary input is refused (``inputs.refuse_binary``) unless it is a file a host reads as
    a database (OpenCode's ``opencode.db``), and an editor's byte order mark is no part of
    the first line; a regular file is read by its session's own loader (its sub-agents'
    files beside it), a pipe once through the stream. ``SourceError``: the format cannot
    be told.
    """
    with open_input(path) as stream:
        head = read_head(stream)
        file = path if path != "-" and os.path.isfile(path) else None
        if file is None or not _a_database(head):
            refuse_binary(head, path)
        head, _ = strip_bom(head)
        yield read_items(head, stream, source, file)
