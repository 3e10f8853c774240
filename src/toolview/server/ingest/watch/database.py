"""``serve --watch-agents``: OpenCode's database followed into the log, a thread a session.

Why apart from the file watcher: OpenCode's sessions are rows it rewrites in
place, not lines appended (``hosts.opencode.live`` hands each part on once,
settled). The folder is watched (``watchfiles``, no sleep loop); a change to
the database or its WAL (size, mtime) is read in one short read-only
transaction. Each top-level session feeds the thread ``opencode-<id>``; what
was handed on is its read position, stored with the batch in one atomic
write (``wire.sources``), so a restarted server resumes with no duplicate
and no gap (the mapper is primed by the parts handed on before).
"""

from __future__ import annotations

import asyncio
import logging
import re
from contextlib import closing
from pathlib import Path
from typing import Final

from toolview.contract import Observation
from toolview.hosts.opencode.database import connect, sessions
from toolview.hosts.opencode.live import LiveSession, database_version
from toolview.wire.sources import PositionedLog, PositionMoved, SourceMove

__all__ = ["DatabaseWatcher", "thread_of"]

NAME: Final = "opencode.db"
log = logging.getLogger("toolview.watch")


def thread_of(session_id: str) -> str:
    """The thread an OpenCode session feeds: ``opencode-<id>`` (spelled as a thread id)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", f"opencode-{session_id}")[:200]


class DatabaseWatcher:
    """Every top-level session of ``folder/opencode.db`` into ``log``, then each change."""

    def __init__(self, log: PositionedLog, folder: Path) -> None:
        self.log = log
        self.path = folder / NAME
        self.live: dict[str, tuple[LiveSession, bytes]] = {}
        self._seen: tuple[tuple[int, int], ...] | None = None
        self._stop = asyncio.Event()

    def stop(self) -> None:
        """``run`` returns at its next wake."""
        self._stop.set()

    async def run(self) -> None:
        """Read now, then on each change to the database or its WAL, until stopped."""
        from watchfiles import awatch

        names = {NAME, f"{NAME}-wal"}
        await self._logged()
        async for _ in awatch(
            self.path.parent,
            watch_filter=lambda _change, changed: Path(changed).name in names,
            step=30,
            debounce=300,
            stop_event=self._stop,
            recursive=False,
        ):
            await self._logged()

    async def _logged(self) -> None:
        try:
            await self.read()
        except Exception:  # the database or the log failed: read again at the next change
            self._seen, self.live = None, {}
            log.exception("toolview: watch: %s could not be read", self.path)

    async def read(self) -> None:
        """Each session's settled parts since its stored position, if the database changed."""
        version = database_version(self.path)
        if version == self._seen or not self.path.is_file():
            return
        self._seen = version
        rows = await asyncio.to_thread(sessions, self.path)
        for row in rows:
            if row.parent_id is None:
                await self._session(row.id)

    async def _session(self, session_id: str) -> None:
        source = f"{self.path}#{session_id}"
        stored = await self.log.position(source)
        held = self.live.get(session_id)
        if held is None or held[1] != (stored or b""):
            held = (await asyncio.to_thread(self._resumed, session_id, stored), stored or b"")
        live = held[0]
        out = await asyncio.to_thread(self._read, live)
        after = live.position()
        if after == (stored or b"{}") and not out:
            self.live[session_id] = (live, stored or b"")
            return
        thread = thread_of(session_id)
        if stored is None:
            await self.log.create_thread(thread)
        try:
            await self.log.append_from(thread, out, SourceMove(source, stored, after))
        except PositionMoved:  # another server read it: resumed from its position next time
            self.live.pop(session_id, None)
            self._seen = None
            return
        self.live[session_id] = (live, after)

    def _resumed(self, session_id: str, stored: bytes | None) -> LiveSession:
        live = LiveSession(session_id)
        if stored:
            with closing(connect(self.path)) as db:
                live.resume(db, stored)
        return live

    def _read(self, live: LiveSession) -> list[Observation]:
        with closing(connect(self.path)) as db:
            out = live.read(db)
        for note in live.take_notes():
            log.warning("toolview: watch: %s: %s", self.path, note)
        return out
