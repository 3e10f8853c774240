"""``serve --watch``: session files under folders, ingested into the log as they grow.

Why this shape: the OS says which files changed (``watchfiles.awatch``, no
sleep loop); each changed file is read from where the log says it was read
to, and each batch is stored with its new read position in one atomic write
(``wire.sources``), so a server killed at any point resumes on restart with
no duplicate and no gap — and two servers sharing a Redis log never store a
batch twice. On start every existing file is read first (newest first: a
running session is live soonest), then changes. A file that stops growing
is finished after ``idle`` seconds (``watch_idle``: the last usage, the
run's end). The watcher is started and stopped with the app
(``app.create_app``'s lifespan).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Final

import msgspec
from watchfiles import Change, awatch

from toolview.server.ingest.watch.formats import SessionFormat, formats_for, thread_id
from toolview.server.ingest.watch.idle import WATCH_IDLE, IdleTimers
from toolview.server.ingest.watch.opening import open_reader
from toolview.server.ingest.watch.plugins import watch_formats
from toolview.server.ingest.watch.reader import Batch, FileReader, FileReplaced
from toolview.server.ingest.watch.root import WatchRoot
from toolview.server.ingest.watch.subagents import META, SubAgents
from toolview.server.ingest.watch.tree import SUFFIX, newest_first, session_files
from toolview.wire.sources import PositionedLog, PositionMoved, SourceMove

__all__ = ["KEEP_READERS", "WATCH_IDLE", "SessionWatcher", "WatchRoot"]

_STEP_MS: Final = 30  # a change is handed on once no other came for this long
_DEBOUNCE_MS: Final = 300  # ... or after this long in a burst
KEEP_READERS: Final = 64  # files whose mapper stays in memory, the most recently read

log = logging.getLogger("toolview.watch")


class SessionWatcher:
    """Reads every session file under the roots into ``log``, then follows changes."""

    def __init__(
        self,
        log: PositionedLog,
        roots: Iterable[WatchRoot],
        formats: tuple[SessionFormat, ...] | None = None,
        idle: float = WATCH_IDLE,
    ) -> None:
        self.log = log
        self.formats = watch_formats() if formats is None else formats  # with the plug-ins'
        self.roots = [WatchRoot(r.path.resolve(), r.preferred) for r in roots]
        # the mappers of the files read last; another is fed its read lines again when it grows
        self.readers: OrderedDict[Path, FileReader] = OrderedDict()
        # a file to read; (path,): one idle long enough to finish; None: stop
        self._queue: asyncio.Queue[Path | tuple[Path] | None] = asyncio.Queue()
        self._queued: set[Path] = set()
        self._stop = asyncio.Event()
        self.sub_agents = SubAgents(log, self._put)
        self.idle = IdleTimers(idle, lambda path: self._queue.put_nowait((path,)))

    async def run(self) -> None:
        """Watch, catch up, then ingest each change until ``stop``."""
        changes = asyncio.create_task(self._watch())
        changes.add_done_callback(_said)
        await asyncio.sleep(0)  # the watch is set up before its first wait: nothing is missed
        for existing in await asyncio.to_thread(self._existing):
            self._put(existing)
        try:
            while not self._stop.is_set():
                item = await self._queue.get()
                if item is None:
                    break
                if isinstance(item, tuple):
                    await self._logged(item[0], self._finish)
                    continue
                self._queued.discard(item)
                if await self._logged(item, self.ingest):
                    await self._logged(item, self._when_idle)
        finally:
            changes.cancel()
            self.idle.close()

    def _existing(self) -> list[Path]:
        """Every session file under the roots now, newest first (a walk: off the loop)."""
        return newest_first(p for root in self.roots for p in session_files(root.path))

    def stop(self) -> None:
        """Stop watching and ingesting: ``run`` returns after the file it is on.

        Call it before cancelling the run task. Why not cancel alone: a
        library on the log's path can swallow a cancellation (seen with the
        Redis log under load: the task stayed "cancelling" at ``queue.get()``
        and the owner waited for ever); the stop wakes that wait.
        """
        self._stop.set()
        self._queue.put_nowait(None)

    async def _watch(self) -> None:
        paths = [root.path for root in self.roots]
        async for found in awatch(
            *paths, watch_filter=None, step=_STEP_MS, debounce=_DEBOUNCE_MS, stop_event=self._stop
        ):
            for change, raw in sorted(found, key=lambda c: c[1]):
                path = Path(raw)
                if change is Change.deleted:
                    self.readers.pop(path, None)  # its thread stays as it was
                    self.idle.cancel(path)
                elif path.is_dir():  # a new folder: its files may predate its watch
                    for inner in session_files(path):
                        self._put(inner)
                elif path.name.endswith(SUFFIX):
                    self._put(path)
                elif path.name.endswith(META):  # a sub-agent's link, written as it starts
                    self._put(path.with_name(path.name.removesuffix(META) + SUFFIX))

    def _put(self, path: Path) -> None:
        if path not in self._queued:
            self._queued.add(path)
            self._queue.put_nowait(path)

    async def _logged(self, path: Path, step: Callable[[Path], Awaitable[None]]) -> bool:
        """``step(path)``; ``False`` (said, the reader dropped) when it failed."""
        try:
            await step(path)
        except (OSError, FileReplaced) as exc:  # gone, unreadable, replaced while read
            self.readers.pop(path, None)
            log.warning("toolview: watch: %s: %s", path, exc)
        except Exception:  # the log failed: this file is read again from the log's position
            self.readers.pop(path, None)
            log.exception("toolview: watch: %s could not be stored", path)
        else:
            return True
        return False

    async def _when_idle(self, path: Path) -> None:
        """Read to its end: finished now if it has been idle long enough, else when it is."""
        reader = self.readers.get(path)
        if reader is None or reader.position.finished:
            self.idle.cancel(path)
        elif self.idle.wait(path) == 0:
            await self._finish(path)

    async def _finish(self, path: Path) -> None:
        """The idle file's mapper finished, stored with a ``finished`` position."""
        await self.ingest(path)  # whatever complete line it has first
        reader = self.readers.get(path)
        if reader is None:  # one of many: its mapper was let go; primed again
            reader = await self._open(path, await self.log.position(str(path)))
        if reader is None or self.idle.wait(path) > 0:  # finished already, or grew meanwhile
            return
        batch = await asyncio.to_thread(reader.finish)
        if batch is None:
            return
        move = SourceMove(str(path), batch.before, batch.after.encode())
        try:
            await self.log.append_from(batch.after.thread, batch.observations, move)
        except PositionMoved:  # another server read or finished it: opened again from the log
            self.readers.pop(path, None)
            return
        reader.commit(batch)
        self.sub_agents.learned(batch.after.thread, batch.links)

    async def ingest(self, path: Path) -> None:
        """Read ``path`` from its stored position to its last complete line, batch by batch."""
        source = str(path)
        stored = await self.log.position(source)
        reader = self.readers.get(path)
        if reader is None or reader.stored != stored:  # new, restarted, or moved by another
            reader = await self._open(path, stored)
            if reader is None:
                return
        self.readers.move_to_end(path)
        while (batch := await self._next(path, reader)) is not None:
            if batch.new_thread:
                await self.log.create_thread(batch.after.thread)
            move = SourceMove(source, batch.before, batch.after.encode())
            try:
                await self.log.append_from(batch.after.thread, batch.observations, move)
            except PositionMoved:  # another server read it meanwhile: go on from its position
                self.sub_agents.learned(batch.after.thread, batch.links)  # facts all the same
                stored = await self.log.position(source)
                if await asyncio.to_thread(reader.adopt, batch, stored):
                    self.sub_agents.learned(reader.position.thread, reader.take_links())
                else:
                    self.readers.pop(path, None)
                return await self.ingest(path)
            reader.commit(batch)
            self.sub_agents.read(path)
            self.sub_agents.learned(batch.after.thread, batch.links)

    async def _next(self, path: Path, reader: FileReader) -> Batch | None:
        """The reader's next batch; a file replaced meanwhile is read as a new version."""
        try:
            return await asyncio.to_thread(reader.read_batch)
        except FileReplaced:
            self.readers.pop(path, None)
            await self.ingest(path)  # from the stored position: a new version
            return None

    async def _open(self, path: Path, stored: bytes | None) -> FileReader | None:
        """A reader from the stored position (kept among the last ``KEEP_READERS``), or ``None``."""
        self.readers.pop(path, None)
        sub_agent, join = await self.sub_agents.join(path)
        if sub_agent and join is None and stored is None:
            return None  # its session or its link is not there yet: asked again then
        formats = self._formats(path)
        reader = await asyncio.to_thread(open_reader, path, stored, formats, join)
        if reader is None:
            return None
        if join is None and reader.new_thread:
            await self._own_thread(reader, formats)
        self.sub_agents.learned(reader.position.thread, reader.take_links())  # from priming
        self.readers[path] = reader
        if len(self.readers) > KEEP_READERS:
            self.readers.popitem(last=False)
        return reader

    async def _own_thread(self, reader: FileReader, formats: tuple[SessionFormat, ...]) -> None:
        """A new thread is never one that holds another's observations: the next version then."""
        fmt = next(f for f in formats if f.name == reader.position.format)
        while (info := await self.log.thread(reader.position.thread)) and info.last_seq > 0:
            version = reader.position.version + 1
            reader.position = msgspec.structs.replace(
                reader.position, version=version, thread=thread_id(fmt, reader.path, version)
            )

    def _formats(self, path: Path) -> tuple[SessionFormat, ...]:
        root = next((r for r in self.roots if path.is_relative_to(r.path)), None)
        return formats_for(root.preferred if root is not None else None, self.formats)


def _said(task: asyncio.Task[None]) -> None:
    """A watch that ended by itself (a folder removed, the OS's watch limit) is said."""
    if not task.cancelled() and task.exception() is not None:
        log.error("toolview: watch: stopped watching: %s", task.exception())
