"""Where a Qwen Code ``agent`` call's sub-agent chat is, and which call ran it.

Qwen Code 0.24 writes a sub-agent's own chat to ``<project>/subagents/
<session id>/agent-<agent id>.jsonl`` (the ids with anything but letters,
digits, ``-`` and ``_`` made ``_``) with an ``agent-<agent id>.meta.json``
beside it whose ``toolUseId`` is the id of the ``agent`` call that ran it.
Only that link is trusted: the chat is the meta file's sibling by *name*,
never a path built from the ``agentId`` inside it (anything may be written
there). Each meta file is read bounded and only when it is a regular file;
one that cannot be read links nothing, and its chat is said as unlinked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import msgspec

from toolview.hosts.claude_code.stored import read_regular

__all__ = ["SubagentChats"]

_META_LIMIT: Final = 64 * 1024
_MAX_CHATS: Final = 2_000  # Qwen Code's own trace reader stops there too
_UNSAFE: Final = re.compile(r"[^a-zA-Z0-9_-]")


class _Meta(msgspec.Struct, rename="camel"):
    tool_use_id: str | None = None


_META: Final = msgspec.json.Decoder(_Meta)


class SubagentChats:
    """A session's sub-agent chats: by the call that ran each, and those no call links."""

    def __init__(self, chat: Path, session_id: str) -> None:
        folder = chat.parent.parent / "subagents" / _UNSAFE.sub("_", session_id)
        self.by_call: dict[str, Path] = {}
        self._all: list[Path] = []
        if session_id and chat.parent.name == "chats" and folder.is_dir():
            self._all = sorted(folder.glob("agent-*.jsonl"))[:_MAX_CHATS]
        for path in self._all:
            link = _link(path.with_name(path.name.removesuffix(".jsonl") + ".meta.json"))
            if link is not None and path.is_file():
                self.by_call.setdefault(link, path)
        self._taken: set[Path] = set()

    def take(self, call_id: str) -> Path | None:
        """The chat the call ``call_id`` ran, once (None when none, or already read)."""
        path = self.by_call.get(call_id)
        if path is None or path in self._taken:
            return None
        self._taken.add(path)
        return path

    def left(self) -> list[Path]:
        """The chats not taken: no meta file, a broken one, or a call never seen."""
        return [p for p in self._all if p not in self._taken]


def _link(meta: Path) -> str | None:
    try:
        link = _META.decode(read_regular(meta, _META_LIMIT)).tool_use_id
    except (OSError, msgspec.DecodeError, UnicodeError, RecursionError, ValueError):
        return None
    return link or None
