"""Sub-agent files: which session's thread they join, under which call.

Why: a sub-agent's session is a file of its own, but on the server it is no
thread of its own — its observations join the session's thread marked with
``parentCallId`` = the call that ran it (the child thread under that call).
The link must be known while the sub-agent works, so the marks are live:

* Claude Code writes ``<session>/subagents/agent-<id>.jsonl`` beside the main
  ``<session>.jsonl``, with ``agent-<id>.meta.json`` whose ``toolUseId`` is the
  ``Agent`` call — written as the sub-agent starts;
* Codex writes the sub-agent's own rollout, whose first record names its
  ``parent_thread_id``; the parent's mapper sees the spawn (the call and the
  child's thread id) — the watcher hands those links here (``learned``);
* Gemini CLI writes ``chats/<session id>/<agent id>.jsonl``, whose first
  record says ``"kind": "subagent"``; the call that ran it names the agent id
  once it has finished (``agentId``): learned as Codex's are, so a Gemini
  sub-agent's chat joins its session when its call is recorded;
* Qwen Code writes ``<project>/subagents/<session id>/agent-<id>.jsonl``
  with a ``.meta.json`` whose ``toolUseId`` is the ``agent`` call, as Claude
  Code's (``qwen_link``): the session is ``<project>/chats/<session id>.jsonl``.

A file whose session or link is not known yet waits, and is queued again
when it may be (the session read, the meta file written, a link learned).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

import msgspec

from toolview.hosts.claude_code.stored import read_regular
from toolview.server.ingest.watch.position import ReadPosition
from toolview.server.ingest.watch.reader import Join
from toolview.wire.sources import PositionedLog

__all__ = ["META", "SubAgents", "claude_link", "codex_parent", "gemini_agent", "qwen_link"]

META: Final = ".meta.json"
_LIMIT: Final = 1 << 20  # bytes of a meta file or a rollout's first line read
_UUID: Final = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\Z")


class _Meta(msgspec.Struct):
    tool_use_id: str | None = msgspec.field(default=None, name="toolUseId")


class _Payload(msgspec.Struct):
    parent_thread_id: str | None = None


class _SessionMeta(msgspec.Struct):
    payload: _Payload | None = None


def claude_link(path: Path) -> tuple[Path, str | None] | None:
    """A Claude Code sub-agent file's main session file and call id (``None``: not written yet)."""
    if path.parent.name != "subagents" or not path.name.startswith("agent-"):
        return None
    session = path.parent.parent
    return session.with_name(session.name + ".jsonl"), _meta_call(path)


def qwen_link(path: Path) -> tuple[Path, str | None] | None:
    """A Qwen Code sub-agent chat's main chat file and call id (``None``: not written yet)."""
    if path.parent.parent.name != "subagents" or not path.name.startswith("agent-"):
        return None
    main = path.parent.parent.parent / "chats" / f"{path.parent.name}.jsonl"
    return main, _meta_call(path)


def _meta_call(path: Path) -> str | None:
    """The ``toolUseId`` of the meta file beside a sub-agent's file."""
    meta = path.with_name(path.name.removesuffix(".jsonl") + META)
    try:
        # a FIFO in its place would block the watcher: regular files only
        call = msgspec.json.decode(read_regular(meta, _LIMIT), type=_Meta).tool_use_id
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        call = None  # not there yet, or half-written: asked again when it changes
    return call or None


class _ChatHead(msgspec.Struct):
    kind: str | None = None


_Head = TypeVar("_Head", _SessionMeta, _ChatHead)


def _first_record(path: Path, shape: type[_Head]) -> _Head | None:
    """A session file's first line as ``shape``, or ``None`` (not there, not that shape)."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(_LIMIT)
        return msgspec.json.decode(first, type=shape)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def codex_parent(path: Path) -> str | None:
    """The thread id of the Codex rollout that spawned this one, or ``None``."""
    if not path.name.startswith("rollout-"):
        return None
    meta = _first_record(path, _SessionMeta)
    return meta.payload.parent_thread_id if meta is not None and meta.payload else None


def gemini_agent(path: Path) -> str | None:
    """The agent id of a Gemini CLI sub-agent's chat (``chats/<session>/<agent id>.jsonl``)."""
    if path.parent.parent.name != "chats" or path.name.startswith("session-"):
        return None
    head = _first_record(path, _ChatHead)
    return path.stem if head is not None and head.kind == "subagent" else None


class SubAgents:
    """The links known so far, and the sub-agent files waiting for theirs."""

    def __init__(self, log: PositionedLog, put: Callable[[Path], None]) -> None:
        self.log = log
        self.put = put  # queue a file to be read again
        self.by_main: dict[Path, set[Path]] = {}  # Claude Code: main file → waiting files
        self.codex: dict[str, Join] = {}  # Codex, Gemini: a child's thread (agent) id → its join
        self.codex_waiting: set[Path] = set()

    async def join(self, path: Path) -> tuple[bool, Join | None]:
        """Whether ``path`` is a sub-agent's file, and where it goes (``None``: not known yet)."""
        parent, link = await asyncio.to_thread(
            lambda: (codex_parent(path), claude_link(path) or qwen_link(path))
        )
        agent = None if parent is not None else await asyncio.to_thread(gemini_agent, path)
        if parent is not None or agent is not None:
            child = _UUID.search(path.stem) if agent is None else None
            found = self.codex.get(agent or (child.group(0) if child else ""))
            if found is None:
                self.codex_waiting.add(path)
            return True, found
        if link is None or not link[0].is_file():
            return False, None
        main_path, call = link
        raw = await self.log.position(str(main_path))
        main = ReadPosition.decode(raw) if raw is not None else None
        if main is None or call is None:
            self.by_main.setdefault(main_path, set()).add(path)
            return True, None
        return True, Join(main.thread, call)

    def learned(self, thread: str, links: list[tuple[str, str]]) -> None:
        """A parent's mapper saw spawns ``(child thread id, call id)``: its children may go on."""
        for child, call in links:
            self.codex[child] = Join(thread, call)
        if links:
            for waiting in self.codex_waiting:
                self.put(waiting)
            self.codex_waiting.clear()

    def read(self, main: Path) -> None:
        """``main`` was read: the files waiting for its thread may go on."""
        for waiting in self.by_main.pop(main, set()):
            self.put(waiting)
