"""Saved Cursor agent runs: find them, tell them apart, and stream their observations.

Cursor's agent has no published session file: what it does publish is the
stream-json a run prints. A user keeps it by redirecting it
(``cursor-agent -p --output-format stream-json TASK > run.jsonl``) or pipes it
(``… | toolview show -``). Its first event is ``system``/``init`` with the run's
``session_id`` and ``apiKeySource``; Claude Code's own stream-json starts the
same way but lists its ``tools`` and ``claude_code_version``, which Cursor's
never does: that is how the two are told apart, so neither claims the other's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolview.contract import Observation
from toolview.hosts.cursor.mapper import CursorMapper
from toolview.hosts.line_files import newest_first, stream_file
from toolview.hosts.sessions import SessionLineError, SessionNote, decode_record

__all__ = ["load_observations", "session_files", "sniff"]

_SNIFF_BYTES: Final = 65536
_FIRST_LINE: Final = 4096  # listing reads no more of each file: an init event is short
_CLAUDES: Final = ("tools", "claude_code_version", "mcp_servers", "uuid")


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Cursor agent stream-json run."""
    first = head[:_SNIFF_BYTES].lstrip().split(b"\n", 1)[0]
    if not first.startswith(b"{"):
        return False
    try:
        record = decode_record(first)
    except SessionLineError:
        return False
    return (
        record.get("type") == "system"
        and record.get("subtype") == "init"
        and isinstance(record.get("session_id"), str)
        and "apiKeySource" in record
        and not any(key in record for key in _CLAUDES)
    )


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a saved run, streamed; a line that cannot be read is a
    ``SessionNote`` and the rest goes on. Never raises."""
    return stream_file(CursorMapper(), path, path.name)


def session_files(root: Path) -> list[Path]:
    """The saved runs under ``root`` (any ``*.jsonl`` that starts like one), newest first.

    Each candidate's head is read (a few KiB): Cursor's own folders hold other JSON
    Lines (its agent transcripts, whose format is not published) that are not runs.
    """
    if root.is_file():
        return [root]
    return newest_first(p for p in root.rglob("*.jsonl") if p.is_file() and _starts_as_run(p))


def _starts_as_run(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return sniff(file.read(_FIRST_LINE))
    except OSError:
        return False
