"""Qwen Code chat files: find them, tell them apart, and stream their observations.

Qwen Code keeps a project's chats in ``~/.qwen/projects/<cwd slug>/chats/
<session uuid>.jsonl``: one record per line, appended, never rewritten, so a
chat is read line by line and memory holds one line at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolview.contract import Observation
from toolview.hosts.line_files import newest_first, stream_file
from toolview.hosts.qwen.mapper import QwenMapper
from toolview.hosts.sessions import SessionNote

__all__ = ["load_observations", "session_files", "sniff"]

# every record starts with its own uuid, its parent's and the session's id, in that order
_HEAD: Final = re.compile(
    rb'\A\s*\{\s*"uuid"\s*:\s*"[^"]{1,64}"\s*,\s*"parentUuid"\s*:\s*(?:null|"[^"]{1,64}")'
    rb'\s*,\s*"sessionId"\s*:'
)
_CHAT: Final = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\.jsonl\Z")


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Qwen Code chat file."""
    return _HEAD.match(head[:4096]) is not None


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a chat file, streamed; a line that cannot be read is a
    ``SessionNote`` and the rest goes on. Never raises."""
    return stream_file(QwenMapper(), path, path.name)


def session_files(root: Path) -> list[Path]:
    """The chat files under ``root`` (``<project>/chats/<uuid>.jsonl``), newest first."""
    if root.is_file():
        return [root]
    found = [p for p in root.rglob("*.jsonl") if p.parent.name == "chats" and _CHAT.match(p.name)]
    return newest_first(found)
