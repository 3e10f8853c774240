"""Sub-agent files: which session's thread they join, under which call.

Why by the file's place and its sidecar: Claude Code writes a sub-agent's
session as ``<session>/subagents/agent-<id>.jsonl`` beside the main
``<session>.jsonl``, with ``agent-<id>.meta.json`` whose ``toolUseId`` is the
``Agent`` call that runs it — written when the sub-agent starts, so a live
watcher can mark the sub-agent's observations while it works. They join the
main session's thread (``parentCallId`` = that call): one thread per session
on the server, the sub-agent a child thread inside it, no thread of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import msgspec

__all__ = ["META", "SubAgentFile", "sub_agent_file"]

META: Final = ".meta.json"
_META_LIMIT: Final = 64 * 1024


class _Meta(msgspec.Struct):
    tool_use_id: str | None = msgspec.field(default=None, name="toolUseId")


@dataclass(frozen=True)
class SubAgentFile:
    """A sub-agent's file: the main session file it belongs to, and the call that ran it."""

    main: Path
    parent_call_id: str | None  # None: the link is not written yet


def sub_agent_file(path: Path) -> SubAgentFile | None:
    """``path`` as a Claude Code sub-agent file, or ``None`` when it is not one."""
    if path.parent.name != "subagents" or not path.name.startswith("agent-"):
        return None
    main = path.parent.parent.with_name(path.parent.parent.name + ".jsonl")
    return SubAgentFile(main, _call_id(path.with_name(path.name.removesuffix(".jsonl") + META)))


def _call_id(meta: Path) -> str | None:
    try:
        with meta.open("rb") as stream:
            raw = stream.read(_META_LIMIT)
        return msgspec.json.decode(raw, type=_Meta).tool_use_id or None
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None  # not there yet, or half-written: asked again when it changes
