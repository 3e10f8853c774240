"""``serve --watch``: session files under folders, ingested into the log as they grow.

Why this shape: the OS says which files changed (``watchfiles.awatch``, no
sleep loop); each changed file is read from where the log says it was read
to, and each batch is stored with its new read position in one atomic write
(``wire.sources``), so a server killed at any point resumes on restart with
no duplicate and no gap — and two servers sharing a Redis log never store a
batch twice. On start every existing file is read first (newest first: a
running session is live soonest), then changes. The watcher is started and
stopped with the app (``app.create_app``'s lifespan).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from watchfiles import Change, awatch

from toolview.server.watch_formats import FORMATS, SessionFormat, formats_for
from toolview.server.watch_position import ReadPosition
from toolview.server.watch_reader import FileReader, FileReplaced, Join, open_reader
from toolview.server.watch_subagents import META, SubAgentFile, sub_agent_file
from toolview.wire.sources import PositionedLog, PositionMoved, SourceMove

__all__ = ["SUFFIX", "SessionWatcher", "WatchRoot"]

SUFFIX: Final = ".jsonl"  # session files (Claude Code's, Codex's, toolview's)
_STEP_MS: Final = 30  # a change is handed on once no other came for this long
_DEBOUNCE_MS: Final = 300  # ... or after this long in a burst

log = logging.getLogger("toolview.watch")


@dataclass(frozen=True)
class WatchRoot:
    """A watched folder, and the format its files are tried in first (``None``: any)."""

    path: Path
    preferred: str | None = None


class SessionWatcher:
    """Reads every session file under the roots into ``log``, then follows changes."""

    def __init__(
        self,
        log: PositionedLog,
        roots: Iterable[WatchRoot],
        formats: tuple[SessionFormat, ...] = FORMATS,
    ) -> None:
        self.log = log
        self.formats = formats
        self.roots = [WatchRoot(r.path.resolve(), r.preferred) for r in roots]
        self.readers: dict[Path, FileReader] = {}
        self.waiting: dict[Path, set[Path]] = {}  # main file → sub-agent files waiting for it
        self._queue: asyncio.Queue[Path] = asyncio.Queue()
        self._queued: set[Path] = set()
        self._stop = asyncio.Event()

    async def run(self) -> None:
        """Watch, catch up, then ingest each change until ``stop``."""
        changes = asyncio.create_task(self._watch())
        changes.add_done_callback(_said)
        await asyncio.sleep(0)  # the watch is set up before its first wait: nothing is missed
        for path in _newest_first(p for root in self.roots for p in _sessions(root.path)):
            self._put(path)
        try:
            while True:
                path = await self._queue.get()
                self._queued.discard(path)
                await self._ingest_logged(path)
        finally:
            changes.cancel()

    def stop(self) -> None:
        """Stop watching (the run task is cancelled by its owner)."""
        self._stop.set()

    async def _watch(self) -> None:
        paths = [root.path for root in self.roots]
        async for found in awatch(
            *paths, watch_filter=None, step=_STEP_MS, debounce=_DEBOUNCE_MS, stop_event=self._stop
        ):
            for change, raw in sorted(found, key=lambda c: c[1]):
                path = Path(raw)
                if change is Change.deleted:
                    self.readers.pop(path, None)  # its thread stays as it was
                elif path.is_dir():
                    for inner in _sessions(path):  # a new folder: its files may predate its watch
                        self._put(inner)
                elif path.name.endswith(SUFFIX):
                    self._put(path)
                elif path.name.endswith(META):  # a sub-agent's link, written as it starts
                    self._put(path.with_name(path.name.removesuffix(META) + SUFFIX))

    def _put(self, path: Path) -> None:
        if path not in self._queued:
            self._queued.add(path)
            self._queue.put_nowait(path)

    async def _ingest_logged(self, path: Path) -> None:
        try:
            await self.ingest(path)
        except (OSError, FileReplaced) as exc:  # gone, unreadable, replaced while read
            self.readers.pop(path, None)
            log.warning("toolview: watch: %s: %s", path, exc)
        except Exception:  # the log failed: this file is read again from the log's position
            self.readers.pop(path, None)
            log.exception("toolview: watch: %s could not be stored", path)

    async def ingest(self, path: Path) -> None:
        """Read ``path`` from its stored position to its last complete line, batch by batch."""
        source = str(path)
        stored = await self.log.position(source)
        reader = self.readers.get(path)
        if reader is None or reader.stored != stored:  # new, restarted, or moved by another
            join = None
            sub = sub_agent_file(path) if stored is None else None
            if sub is not None and sub.main.is_file():
                join = await self._join(path, sub)
                if join is None:
                    return  # its session or its link is not there yet: asked again then
            formats = self._formats(path)
            reader = await asyncio.to_thread(open_reader, path, stored, formats, join)
            if reader is None:
                self.readers.pop(path, None)
                return
            self.readers[path] = reader
        while True:
            try:
                batch = await asyncio.to_thread(reader.read_batch)
            except FileReplaced:
                del self.readers[path]
                return await self.ingest(path)  # from the stored position: a new version
            if batch is None:
                return
            if batch.new_thread:
                await self.log.create_thread(batch.after.thread)
            move = SourceMove(source, batch.before, batch.after.encode())
            try:
                await self.log.append_from(batch.after.thread, batch.observations, move)
            except PositionMoved:  # another server read it meanwhile: go on from its position
                del self.readers[path]
                return await self.ingest(path)
            reader.commit(batch)
            for waiting in self.waiting.pop(path, set()):
                self._put(waiting)

    async def _join(self, path: Path, sub: SubAgentFile) -> Join | None:
        """A sub-agent file's thread and call, or ``None`` (remembered) until both are known."""
        raw = await self.log.position(str(sub.main))
        main = ReadPosition.decode(raw) if raw is not None else None
        if main is None or sub.parent_call_id is None:
            self.waiting.setdefault(sub.main, set()).add(path)
            return None
        return Join(main.thread, sub.parent_call_id)

    def _formats(self, path: Path) -> tuple[SessionFormat, ...]:
        root = next((r for r in self.roots if path.is_relative_to(r.path)), None)
        return formats_for(root.preferred if root is not None else None, self.formats)


def _said(task: asyncio.Task[None]) -> None:
    """A watch that ended by itself (a folder removed, the OS's watch limit) is said."""
    if not task.cancelled() and task.exception() is not None:
        log.error("toolview: watch: stopped watching: %s", task.exception())


def _sessions(folder: Path) -> list[Path]:
    """Every session file under ``folder``."""
    try:
        return [p for p in folder.rglob(f"*{SUFFIX}") if p.is_file()]
    except OSError:
        return []


def _newest_first(paths: Iterable[Path]) -> list[Path]:
    def modified(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=modified, reverse=True)
