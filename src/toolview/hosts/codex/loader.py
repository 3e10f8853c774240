"""Codex rollout files: find them, tell them apart, and stream their observations.

Codex writes one rollout per thread under ``~/.codex/sessions/YYYY/MM/DD/``
(``rollout-<time>-<thread id>.jsonl``); a sub-agent's thread gets its own
rollout, whose ``session_meta`` names its parent (``parent_thread_id``,
``source.subagent``), while the parent's record of the spawn names the
sub-agent's thread id. So the loader reads a session line by line (memory
bounded by the largest record) and, as soon as a line links a sub-agent,
that sub-agent's rollout through its own mapper marked with the spawning
call's id (and theirs in turn) — before what the linking line maps, so the
spawning call is not final before its sub-agent's calls are in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import msgspec

from toolview.contract import Observation
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.codex.mapper import CodexMapper
from toolview.hosts.sessions import SessionNote, file_lines, mapped_line

__all__ = ["load_observations", "parent_thread_id", "session_files", "sniff"]

_MAX_DEPTH: Final = 8
_THREAD_ID: Final = re.compile(r"[0-9A-Za-z-]{1,64}")
_STAMP: Final = re.compile(r"rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})")
_HEAD: Final = re.compile(
    rb'\A\s*\{\s*"timestamp"\s*:\s*"[^"]{0,64}"\s*,\s*(?:"ordinal"\s*:\s*\d+\s*,\s*)?'
    rb'"type"\s*:\s*"(?:session_meta|response_item|event_msg|turn_context)"'
)
_PARENT: Final = re.compile(rb'"parent_thread_id"\s*:\s*"([0-9A-Za-z-]{1,64})"')
_JSON: Final = msgspec.json.Decoder()


def sniff(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts like a Codex rollout."""
    return _HEAD.match(head[:4096]) is not None


def load_observations(path: Path) -> Iterator[Observation | SessionNote]:
    """The observations of a rollout and of its sub-agents' rollouts (marked), streamed.

    A line that cannot be read becomes a ``SessionNote`` and the rest goes on.
    """
    yield from _load(path, None, set(), 0)


def _load(
    path: Path, parent_call_id: str | None, seen: set[str], depth: int
) -> Iterator[Observation | SessionNote]:
    mapper = CodexMapper(parent_call_id=parent_call_id)
    linked = 0
    try:
        for number, line in file_lines(path):
            mapped = list(mapped_line(mapper, line, f"{path.name} line {number}"))
            if mapper.session_id:
                seen.add(mapper.session_id)
            # a sub-agent linked by this line is read before what the line maps (the
            # spawning call's result, often): a stream draws a call once it is final
            yield from _subagents(path, mapper.subagents[linked:], seen, depth)
            linked = len(mapper.subagents)
            yield from mapped
    except OSError as exc:
        yield SessionNote(f"{path.name}: cannot be read ({exc.strerror or exc})")
    finished = mapper.finish()
    yield from _subagents(path, mapper.subagents[linked:], seen, depth)
    yield from finished


def _subagents(
    path: Path, links: list[tuple[str, str]], seen: set[str], depth: int
) -> Iterator[Observation | SessionNote]:
    """The rollouts of the sub-agents ``links`` names (thread id, spawning call), marked."""
    for thread_id, call_id in links:
        child = _rollout_of(path, thread_id) if thread_id not in seen else None
        if child is None or depth >= _MAX_DEPTH:
            why = "already read" if thread_id in seen else "its rollout was not found"
            yield SessionNote(f"the sub-agent {thread_id[:64]} of call {call_id[:64]}: {why}")
            continue
        seen.add(thread_id)
        yield from _load(child, call_id, seen, depth + 1)


def _rollout_of(path: Path, thread_id: str) -> Path | None:
    """The rollout of ``thread_id``: beside ``path``, else anywhere under its sessions root."""
    if _THREAD_ID.fullmatch(thread_id) is None:
        return None
    pattern = f"rollout-*-{thread_id}.jsonl"
    for found in sorted(path.parent.glob(pattern)):
        return found
    day = path.parent
    if len(day.parents) >= 3 and all(
        p.name.isdigit() for p in (day, day.parent, day.parent.parent)
    ):
        for found in sorted(day.parents[2].glob(f"*/*/*/{pattern}")):
            return found
    return None


def session_files(root: Path) -> list[Path]:
    """The main (not sub-agent) rollouts under ``root``, newest first."""
    if root.is_file():
        return [root]
    found = [p for p in root.rglob("rollout-*.jsonl") if p.is_file() and not parent_thread_id(p)]
    return sorted(found, key=_newest, reverse=True)


def _newest(path: Path) -> tuple[str, float]:
    stamp = _STAMP.match(path.name)
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return (stamp.group(1) if stamp else "", mtime)


def parent_thread_id(path: Path) -> str | None:
    """The thread that spawned this rollout's (a sub-agent's), from its ``session_meta``.

    ``""`` when it says it is a sub-agent without naming the parent; None for
    a main session (or a file that cannot be read). A live reader joins a
    sub-agent's rollout to its parent's thread with this and the parent
    mapper's ``subagents`` (thread id → spawning call).
    """
    try:
        with path.open("rb") as file:
            head = file.readline(1 << 20)
    except OSError:
        return None
    try:
        record = _JSON.decode(head)
    except (msgspec.DecodeError, UnicodeError, RecursionError, ValueError):
        found = _PARENT.search(head[:65536])
        return found.group(1).decode(errors="replace") if found else None
    meta = as_map(as_map(record).get("payload"))
    source = as_map(meta.get("source"))
    spawn = as_map(as_map(source.get("subagent")).get("thread_spawn"))
    parent = as_str(meta.get("parent_thread_id")) or as_str(spawn.get("parent_thread_id"))
    if parent:
        return parent
    return "" if meta.get("thread_source") == "subagent" or "subagent" in source else None
