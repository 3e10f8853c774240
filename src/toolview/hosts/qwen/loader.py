"""Qwen Code chat files: find them, tell them apart, and stream their observations.

Qwen Code keeps a project's chats in ``~/.qwen/projects/<cwd slug>/chats/
<session uuid>.jsonl``: one record per line, appended, never rewritten, so a
chat is read line by line and memory holds one line at a time. A sub-agent's
chat (``subagents.py`` finds it by the ``agent`` call that ran it) is read
right after that call, its observations marked with the call's id; one no
call links is said in a note, never dropped unsaid.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolview.contract import Observation, ToolCall
from toolview.hosts.line_files import newest_first
from toolview.hosts.qwen.mapper import QwenMapper
from toolview.hosts.qwen.subagents import SubagentChats
from toolview.hosts.sessions import SessionNote, file_lines, mapped_line

__all__ = ["load_observations", "session_files", "sniff"]

# every record starts with its own uuid, its parent's and the session's id, in that order
_HEAD: Final = re.compile(
    rb'\A\s*\{\s*"uuid"\s*:\s*"[^"]{1,64}"\s*,\s*"parentUuid"\s*:\s*(?:null|"[^"]{1,64}")'
    rb'\s*,\s*"sessionId"\s*:'
)
_CHAT: Final = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\.jsonl\Z")
_MAX_DEPTH: Final = 8


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Qwen Code chat file."""
    return _HEAD.match(head[:4096]) is not None


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a chat file and of its sub-agents' (marked), streamed; a line
    that cannot be read is a ``SessionNote`` and the rest goes on. Never raises."""
    found: list[SubagentChats] = []
    yield from _chat(path, QwenMapper(), found, 0)
    chats = found[0] if found else SubagentChats(path, path.stem)
    for left in chats.left():
        yield SessionNote(f"the sub-agent chat {left.name[:120]}: no call here ran it (not nested)")


def _chat(
    path: Path, mapper: QwenMapper, found: list[SubagentChats], depth: int
) -> Iterator[Observation | SessionNote]:
    try:
        for number, line in file_lines(path):
            for item in mapped_line(mapper, line, f"{path.name} line {number}"):
                yield item
                if isinstance(item, ToolCall) and depth < _MAX_DEPTH:
                    if not found:  # made once the session's id is known
                        found.append(SubagentChats(path, mapper.session_id or path.stem))
                    child = found[0].take(item.tool_call_id)
                    if child is not None:
                        sub = QwenMapper(parent_call_id=item.tool_call_id)
                        yield from _chat(child, sub, found, depth + 1)
    except OSError as exc:
        yield SessionNote(f"{path.name}: cannot be read ({exc.strerror or exc})")
    yield from mapper.finish()
    yield from (SessionNote(f"{path.name}: {note}") for note in mapper.take_notes())


def session_files(root: Path) -> list[Path]:
    """The chat files under ``root`` (``<project>/chats/<uuid>.jsonl``), newest first."""
    if root.is_file():
        return [root]
    found = [p for p in root.rglob("*.jsonl") if p.parent.name == "chats" and _CHAT.match(p.name)]
    return newest_first(found)
