"""What the agent-session hosts (Claude Code, Codex CLI) share.

Both read JSON Lines a coding agent appends to while it works, so both need the
same three things: a line that is not a record is a *note*, never fatal
(``SessionLineError`` from a mapper, ``SessionNote`` from a loader); a file is
read line by line with memory bounded by its longest line, a half-written last
line held back until its newline arrives; and a record's timestamp becomes the
contract's RFC 3339 UTC form, or nothing (a bad time is absent, not an error).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, Final, Protocol

import msgspec

from toolview.contract import Descriptor, Observation, ToolCall, ToolResult
from toolview.contract.moments import at_from_text
from toolview.hosts.cut_lines import with_cuts

if TYPE_CHECKING:  # no pathlib at start-up: ``show`` of observations never opens a session
    from pathlib import Path

__all__ = [
    "LineSplitter",
    "NotingMapper",
    "SessionLineError",
    "SessionNote",
    "decode_record",
    "file_lines",
    "final_result",
    "mapped_line",
    "session_id",
    "utc_timestamp",
]

_JSON: Final = msgspec.json.Decoder()
_UUID_TAIL: Final = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\Z", re.IGNORECASE)
_GEMINI_CHAT: Final = re.compile(r"session-\d{4}-\d\d-\d\dT\d\d-\d\d-(?P<id>[0-9a-f]{8})\Z")
_CHUNK: Final = 1 << 20
_LONG_LINE: Final = 4 << 20  # ``hosts.long_lines.LONG_LINE``: not imported for a normal file
_JSON_NAMES: Final = {
    list: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


class SessionLineError(ValueError):
    """One line of a session is not a record this host can read; the message says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class SessionNote:
    """What a loader yields in place of a line it could not read: shown, never dropped."""

    text: str


class NotingMapper(Protocol):
    """A host's mapper that says what it left out beside what it maps (Codex's, Gemini's)."""

    def feed_line(self, line: bytes) -> list[Observation]: ...  # pragma: no cover

    def take_notes(self) -> list[str]: ...  # pragma: no cover


def mapped_line(
    mapper: NotingMapper, line: bytes, where: str
) -> Iterator[Observation | SessionNote]:
    """What ``line`` maps to, then the mapper's notes, each a ``SessionNote`` said ``where``.

    A line the mapper cannot read is a note and the rest goes on; so is one that
    makes it fail some other way (a record no version wrote): never a crash.
    """
    try:
        yield from with_cuts(mapper.feed_line(line), line)
    except SessionLineError as exc:
        yield SessionNote(f"{where}: {exc}")
    except Exception as exc:  # a record no version wrote: say so, keep the rest
        yield SessionNote(f"{where}: could not be mapped ({type(exc).__name__})")
    for note in mapper.take_notes():
        yield SessionNote(f"{where}: {note}")


def decode_record(line: bytes) -> Mapping[str, object]:
    """One JSON Lines record as a JSON object, or ``SessionLineError`` saying why not."""
    try:
        record = _JSON.decode(line)
    except msgspec.DecodeError as exc:
        raise SessionLineError(f"not JSON ({exc})") from None
    except (UnicodeError, RecursionError, ValueError):
        raise SessionLineError("not UTF-8 JSON within bounds") from None
    if not isinstance(record, dict):
        raise SessionLineError(f"a JSON {_JSON_NAMES.get(type(record), 'value')}, not an object")
    return record


class LineSplitter:
    """Bytes in, complete lines out; a last line without its newline waits for it.

    A writer that is appending may have written half a record: that half is
    kept (``pending``) until more bytes complete it, so a growing file maps
    exactly like the finished one.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []  # a long line arrives in pieces: joined once, at its end

    @property
    def pending(self) -> bytes:
        """The bytes after the last newline seen (a line still being written)."""
        return b"".join(self._parts)

    @property
    def pending_size(self) -> int:
        """The length of ``pending``, without joining it."""
        return sum(map(len, self._parts))

    def feed(self, data: bytes) -> list[bytes]:
        """The lines ``data`` completes, without their newlines (blank ones too: they count)."""
        if b"\n" not in data:
            if data:
                self._parts.append(data)
            return []
        pieces = data.split(b"\n")
        if self._parts:
            pieces[0] = b"".join([*self._parts, pieces[0]])
        rest = pieces.pop()
        self._parts = [rest] if rest else []
        return pieces

    def flush(self) -> list[bytes]:
        """The held-back last line, for a file known to be finished."""
        rest, self._parts = b"".join(self._parts), []
        return [rest] if rest else []


def file_lines(source: Path | BinaryIO, *, final: bool = True) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of a session file's non-blank lines, read in 1 MiB chunks.

    ``final`` says the writer has finished: a last line without a newline is
    then a line too; otherwise it is held back (a live reader reads it once
    its newline is written). Memory is bounded by the longest line, and, in a
    finished file, by ``LONG_LINE``: the rest of a longer line is read in
    pieces, its huge strings windowed (``hosts.long_lines``; its cuts are on
    the line, for ``with_cuts``).
    """
    if isinstance(source, os.PathLike):
        with open(source, "rb") as handle:
            yield from file_lines(handle, final=final)
        return
    splitter = LineSplitter()
    number = 0
    while chunk := source.read(_CHUNK):
        for line in splitter.feed(chunk):
            number += 1
            if line.strip():
                yield number, line
        if final and splitter.pending_size > _LONG_LINE:
            from toolview.hosts.long_lines import finish_line

            number += 1
            line = finish_line(b"".join(splitter.flush()), source)[0]
            if line.strip():
                yield number, line
    for line in splitter.flush() if final else []:
        if line.strip():
            yield number + 1, line


def utc_timestamp(value: object) -> str | None:
    """``value`` as the contract's timestamp (RFC 3339, UTC, ``Z``), or ``None``.

    The one reading of a time is the contract's (``moments.at_from_text``):
    one already in UTC with ``Z`` passes unchanged, any other ISO 8601 time
    with a zone is converted, and one without a zone, or not a real time at
    all, is ``None`` — nothing guesses a zone.
    """
    return at_from_text(value)


def session_id(path: Path) -> str:
    """The id the agent gave the session in ``path``: a Codex rollout's trailing UUID
    (``rollout-<time>-<uuid>.jsonl``), a Gemini CLI chat's short id (``session-<time>-<id8>``,
    ``.jsonl`` or the older ``.json``), a Copilot CLI ``events.jsonl``'s folder, else the
    file's name without ``.jsonl`` (Claude Code names a session's file by its id). One rule
    for ``show``'s id lookup and the threads ``serve --watch`` makes.
    """
    if path.name == "events.jsonl":  # Copilot CLI: session-state/<session uuid>/events.jsonl
        return path.parent.name
    stem = path.name.removesuffix(".jsonl")
    chat = _GEMINI_CHAT.match(stem.removesuffix(".json"))
    if chat is not None:
        return chat.group("id")
    tail = _UUID_TAIL.search(stem)
    return tail.group(0) if tail is not None and stem.startswith("rollout-") else stem


def final_result(
    call: ToolCall, text: str, *, failed: bool, descriptor: Descriptor | None, at: str | None
) -> ToolResult:
    """``call``'s final result as every turn-by-turn host (Gemini CLI, Qwen Code, OpenCode)
    maps one: its text whole, the failure as the host decided it, stamped ``at`` if known."""
    return ToolResult(
        tool_call_id=call.tool_call_id,
        tool_name=call.tool_name,
        text=text,
        complete=True,
        is_error=failed,
        descriptor=descriptor,
        at=msgspec.UNSET if at is None else at,
    )
