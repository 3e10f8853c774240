"""The embedded log: one SQLite file, WAL mode, durable before acknowledged.

Every read is by ``(thread, seq)`` on the primary key, never a full scan.
sqlite3 is blocking, so each call runs in a worker thread. Writes share one
connection under one lock; reads have their own connection and lock, so a
16 MiB append (seconds) does not hold up ``GET /api/threads``: in WAL mode a
reader sees the last commit while a writer works. A waiter is woken by this
process's appends at once and polls for appends made by other processes
sharing the file.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import platformdirs

from toolview.contract import Observation
from toolview.private_files import private_dir, touch_private
from toolview.wire.feed import (
    OpenCall,
    decode_open_call,
    encode_batch,
    encode_open_call,
    record_call_id,
)
from toolview.wire.idempotency import KEEP_KEYS, Appended, Remembered, batch_digest
from toolview.wire.log import ThreadInfo, UnknownThread
from toolview.wire.log_sqlite_keys import KEYS_SCHEMA, known_key, remember_key
from toolview.wire.watch import Watch

__all__ = ["SQLiteLog", "default_db_path"]

T = TypeVar("T")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY, created REAL NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    thread TEXT NOT NULL, seq INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (thread, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS open_calls (
    thread TEXT NOT NULL, call_id TEXT NOT NULL, state BLOB NOT NULL,
    PRIMARY KEY (thread, call_id)
) WITHOUT ROWID;
"""
_POLL: Final = 0.25  # seconds between checks for appends by other processes


def default_db_path() -> Path:
    """The log file under the user's data directory."""
    return Path(platformdirs.user_data_dir("toolview")) / "observations.db"


def _prepare_private(path: Path) -> None:
    """The log's folder and files, readable by their owner only (``toolview.private_files``).

    The file is created 0600 *before* SQLite opens it: SQLite creates its
    ``-wal`` and ``-shm`` with the database file's own mode, so they are
    0600 from their first byte too, whatever the umask. Leftovers of an
    older toolview (0644) are tightened. The default data folder is
    toolview's own and is tightened even if it exists; a folder given with
    ``--db`` is the user's, and only made 0700 if toolview creates it.
    """
    private_dir(path.parent, tighten=path.parent == default_db_path().parent)
    touch_private(path)
    for suffix in ("-wal", "-shm"):
        leftover = path.with_name(path.name + suffix)
        if leftover.exists():
            touch_private(leftover)


class SQLiteLog:
    """The ``ObservationLog`` on one SQLite file."""

    def __init__(self, path: Path | str, *, keep_keys: int = KEEP_KEYS) -> None:
        self.path = Path(path)
        self.keep_keys = keep_keys  # idempotency keys remembered per thread
        _prepare_private(self.path)
        self._db = self._connect()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA + KEYS_SCHEMA)
        self._reader = self._connect()  # opened after the schema: reads only, never waits
        self._lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._watches: dict[str, Watch] = {}

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)

    async def _run(self, fn: Callable[[], T]) -> T:
        """``fn`` (which writes with ``_db``) in a worker thread, one writer at a time."""
        return await asyncio.to_thread(_locked, self._lock, fn)

    async def _query(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        """Every row of one ``SELECT`` on the read connection, in a worker thread."""
        return await asyncio.to_thread(
            _locked, self._read_lock, lambda: self._reader.execute(sql, args).fetchall()
        )

    async def create_thread(self, thread_id: str) -> bool:
        """Create the thread; ``False`` if it already existed."""
        sql = "INSERT OR IGNORE INTO threads (id, created) VALUES (?, ?)"
        return await self._run(
            lambda: self._db.execute(sql, (thread_id, time.time())).rowcount == 1
        )

    async def threads(self) -> list[ThreadInfo]:
        """Every thread, oldest first."""
        sql = "SELECT id, created, last_seq FROM threads ORDER BY created, id"
        return [ThreadInfo(*row) for row in await self._query(sql)]

    async def thread(self, thread_id: str) -> ThreadInfo | None:
        """One thread, or ``None``."""
        sql = "SELECT id, created, last_seq FROM threads WHERE id = ?"
        rows = await self._query(sql, (thread_id,))
        return ThreadInfo(*rows[0]) if rows else None

    async def append(self, thread_id: str, observations: Sequence[Observation]) -> list[int]:
        """Number and store in one transaction; returns once it is committed."""
        return (await self._append_async(thread_id, observations, None)).seqs

    async def append_once(
        self, thread_id: str, observations: Sequence[Observation], key: str
    ) -> Appended:
        """``append`` with the key written in the same transaction (see ``ObservationLog``)."""
        return await self._append_async(thread_id, observations, key)

    async def _append_async(
        self, thread_id: str, observations: Sequence[Observation], key: str | None
    ) -> Appended:
        appended = await self._run(lambda: self._append(thread_id, observations, key))
        if appended.seqs and not appended.replayed:
            self._notify(thread_id, appended.seqs[-1])
        return appended

    def _append(
        self, thread_id: str, observations: Sequence[Observation], key: str | None
    ) -> Appended:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT last_seq FROM threads WHERE id = ?", (thread_id,)).fetchone()
            if row is None:
                raise UnknownThread(thread_id)
            known = known_key(db, thread_id, key) if key is not None else None
            digest = batch_digest(observations) if key is not None else b""
            if key is not None and known is not None:
                appended = known.replay(key, digest)  # KeyConflict rolls back: nothing written
            else:
                last = row[0]
                appended = Appended(self._store(thread_id, observations, last))
                if key is not None and appended.seqs:
                    batch = Remembered(last + 1, last + len(observations), digest)
                    remember_key(db, thread_id, key, batch, self.keep_keys)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return appended

    def _store(self, thread_id: str, observations: Sequence[Observation], last: int) -> list[int]:
        """Number and write the batch (inside the caller's transaction)."""
        batch = encode_batch(observations, last, self._load_calls(thread_id, observations))
        self._db.executemany(
            "INSERT INTO records (thread, seq, body) VALUES (?, ?, ?)",
            [(thread_id, seq, body) for seq, body in batch.records],
        )
        for call_id, call in batch.calls.items():
            self._store_call(thread_id, call_id, call)
        sql = "UPDATE threads SET last_seq = ? WHERE id = ?"
        self._db.execute(sql, (last + len(observations), thread_id))
        return [seq for seq, _ in batch.records]

    def _load_calls(
        self, thread_id: str, observations: Sequence[Observation]
    ) -> dict[str, OpenCall]:
        wanted = {cid for cid in map(record_call_id, observations) if cid is not None}
        calls: dict[str, OpenCall] = {}
        sql = "SELECT state FROM open_calls WHERE thread = ? AND call_id = ?"
        for call_id in wanted:
            row = self._db.execute(sql, (thread_id, call_id)).fetchone()
            if row is not None:
                calls[call_id] = decode_open_call(row[0])
        return calls

    def _store_call(self, thread_id: str, call_id: str, call: OpenCall | None) -> None:
        if call is None:
            sql = "DELETE FROM open_calls WHERE thread = ? AND call_id = ?"
            self._db.execute(sql, (thread_id, call_id))
            return
        sql = "INSERT OR REPLACE INTO open_calls (thread, call_id, state) VALUES (?, ?, ?)"
        self._db.execute(sql, (thread_id, call_id, encode_open_call(call)))

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        """Records with ``after < seq ≤ upto`` by primary key, at most ``limit``."""
        sql = (
            "SELECT seq, body FROM records WHERE thread = ? AND seq > ? AND seq <= ?"
            " ORDER BY seq LIMIT ?"
        )
        bound = upto if upto is not None else 2**62
        args = (thread_id, after, bound, limit)
        return [(seq, bytes(body)) for seq, body in await self._query(sql, args)]

    async def open_calls(self, thread_id: str) -> dict[str, OpenCall]:
        """Calls with partial output and no final result yet."""
        sql = "SELECT call_id, state FROM open_calls WHERE thread = ?"
        rows = await self._query(sql, (thread_id,))
        return {call_id: decode_open_call(state) for call_id, state in rows}

    async def wait(self, thread_id: str, after: int, timeout: float) -> bool:
        """Until the thread has a seq past ``after``, or ``timeout`` seconds.

        One watcher per thread serves every waiter: woken at once by this
        process's appends, it polls for other processes' appends — only while
        someone waits, so a thousand threads followed once cost nothing after.
        """
        watch = self._watches.get(thread_id)
        if watch is None:
            info = await self.thread(thread_id)
            watch = self._watches.setdefault(thread_id, Watch(info.last_seq if info else 0))
        if watch.task is None or watch.task.done():
            watch.task = asyncio.create_task(self._poll(thread_id, watch))
        return await watch.wait_past(after, timeout)

    async def _poll(self, thread_id: str, watch: Watch) -> None:
        while True:
            await asyncio.sleep(_POLL)
            if watch.waiters == 0:  # nobody left: stop, and forget the thread
                if self._watches.get(thread_id) is watch:
                    del self._watches[thread_id]
                return
            info = await self.thread(thread_id)
            if info is not None:
                watch.advance(info.last_seq)

    def _notify(self, thread_id: str, last: int) -> None:
        watch = self._watches.get(thread_id)
        if watch is not None:
            watch.advance(last)

    async def aclose(self) -> None:
        """Stop the watchers and close the file."""
        for watch in self._watches.values():
            if watch.task is not None:
                watch.task.cancel()
        await self._run(self._db.close)
        await asyncio.to_thread(_locked, self._read_lock, self._reader.close)


def _locked(lock: threading.Lock, fn: Callable[[], T]) -> T:
    with lock:
        return fn()
