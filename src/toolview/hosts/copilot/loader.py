"""Copilot CLI session files: find them, tell them apart, and stream their observations.

Copilot CLI (1.0.x) keeps each session in ``~/.copilot/session-state/<session
uuid>/events.jsonl`` (``COPILOT_HOME`` moves ``~/.copilot``): one event per
line, appended, so a session is read line by line and memory holds one line
at a time. Before the per-session folders (0.0.x) the same events went to a
flat ``session-state/<uuid>.jsonl``; both are listed. The folder's other files
(``workspace.yaml``, checkpoints, file snapshots) say nothing the events do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolview.contract import Observation
from toolview.hosts.copilot.mapper import CopilotMapper
from toolview.hosts.line_files import newest_first, stream_file
from toolview.hosts.sessions import SessionNote

__all__ = ["load_observations", "session_files", "sniff"]

# the first event: a session's start, its type first (the CLI's key order)
_HEAD: Final = re.compile(
    rb'\A\s*\{\s*"type"\s*:\s*"session\.(?:start|resume)"\s*,\s*"data"\s*:\s*\{\s*"sessionId"\s*:'
)
_UUID: Final = r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
_FOLDER: Final = re.compile(_UUID + r"\Z")
_FLAT: Final = re.compile(_UUID + r"\.jsonl\Z")


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Copilot CLI session."""
    return _HEAD.match(head[:4096]) is not None


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a session file, streamed; a line that cannot be read is a
    ``SessionNote`` and the rest goes on. Never raises."""
    where = f"{path.parent.name}/{path.name}" if path.name == "events.jsonl" else path.name
    return stream_file(CopilotMapper(), path, where)


def session_files(root: Path) -> list[Path]:
    """The sessions under ``root`` (``<uuid>/events.jsonl``, the older ``<uuid>.jsonl``),
    newest first."""
    if root.is_file():
        return [root]
    found = [p for p in root.rglob("events.jsonl") if _FOLDER.match(p.parent.name)]
    found += [p for p in root.rglob("*.jsonl") if _FLAT.match(p.name)]
    return newest_first(found)
