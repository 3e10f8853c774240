"""Which thread a sub-agent's file joins when ``toolview sync`` forwards it.

Why: on the server a sub-agent is no thread of its own — its calls join its
session's thread under the call that ran it, as ``serve --watch`` joins them
(``server.ingest.watch.subagents``: the same tests of a file — Claude Code's
meta file, a Codex rollout's parent, a Gemini CLI sub-agent chat). Here the
links come from this command's own state (the main file's saved position)
and from the spawns the parents' mappers saw; a sub-agent file whose link is
not known yet waits for a later pass, never a thread of its own.
"""

from __future__ import annotations

from pathlib import Path

from toolview.cli.sync_state import SyncState
from toolview.server.ingest.watch.position import ReadPosition
from toolview.server.ingest.watch.reader import Join
from toolview.server.ingest.watch.subagents import claude_link, codex_parent, gemini_agent

__all__ = ["Joins"]


class Joins:
    """The spawns learned so far (a child's thread or agent id → its join)."""

    def __init__(self) -> None:
        self.spawned: dict[str, Join] = {}

    def learned(self, thread: str, links: list[tuple[str, str]]) -> None:
        """A parent's mapper saw ``(child id, call id)`` spawns in ``thread``."""
        for child, call in links:
            self.spawned[child] = Join(thread, call)

    def join(self, path: Path, state: SyncState) -> tuple[bool, Join | None]:
        """Whether ``path`` is a sub-agent's file, and the thread it joins (``None``: not yet)."""
        parent = codex_parent(path)
        agent = gemini_agent(path) if parent is None else None
        if parent is not None or agent is not None:
            child = agent or next((t for t in self.spawned if t in path.stem), "")
            return True, self.spawned.get(child)
        link = claude_link(path)
        if link is None or not link[0].is_file():
            return False, None
        main_path, call = link
        entry = state.files.get(str(main_path))
        main = ReadPosition.decode(entry.stored) if entry and entry.stored else None
        if main is None or call is None:
            return True, None
        return True, Join(main.thread, call)
