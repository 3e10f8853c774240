"""``toolview show --follow ses_…`` (or ``opencode.db``): an OpenCode session, live.

Why apart from ``show_follow_file``: OpenCode's sessions are rows of a SQLite
database it rewrites in place, not lines appended to a file. The database's
folder is watched (``watchfiles``: no sleep loop; a wake each second keeps
time for ``--idle``); on each change the database and its WAL's size and
modification time are compared with the last read's, and only a change is
read: one short read-only transaction (``hosts.opencode.live``), each part
handed on once, when settled. It draws as every ``--follow`` does
(``cli.show_follow.follow_items``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolview.cli.jsonl import Item
from toolview.cli.session_hosts import Note
from toolview.cli.show_follow import follow_items

__all__ = ["database_items", "follow_database"]

WAKE_MS: Final = 1_000
STEP_MS: Final = 20
DEBOUNCE_MS: Final = 100


def follow_database(path: Path, session: str | None, args: argparse.Namespace) -> int:
    """Follow ``session`` of the database at ``path`` (None: every session) until idle."""
    follow_items(database_items(path, session, args.idle), args)
    return 0


def database_items(path: Path, session: str | None, idle: float | None) -> Iterator[Item]:
    """The sessions' observations as they settle, notes as ``Note``; ends after ``idle``
    seconds with no change (None: never)."""
    from watchfiles import watch

    from toolview.hosts.opencode.live import LiveDatabase, database_version

    names = {path.name, f"{path.name}-wal"}
    wake = WAKE_MS if idle is None else max(STEP_MS, min(WAKE_MS, int(idle * 1000)))
    watcher = watch(
        path.parent,
        watch_filter=lambda _change, changed: Path(changed).name in names,
        debounce=DEBOUNCE_MS,
        step=STEP_MS,
        rust_timeout=wake,
        yield_on_timeout=True,
        recursive=False,
    )
    live = LiveDatabase(path, session)
    seen: tuple[tuple[int, int], ...] | None = None
    last = time.monotonic()
    while True:
        now_seen = database_version(path)
        if now_seen != seen:
            seen, last = now_seen, time.monotonic()
            for item in live.read():
                yield Note(item) if isinstance(item, str) else item
        elif idle is not None and time.monotonic() - last >= idle:
            return
        next(watcher)  # a change to the database or its WAL, or the wake-up
