"""Where the SQLite log's file lives, and that only its owner can read it.

Why apart: the file's place and modes are the log's privacy, not its storage —
every thread's observations are in it, so it, its folder and SQLite's
``-wal``/``-shm`` companions are private from their first byte
(``toolview.private_files``), whoever opens the log.
"""

from __future__ import annotations

import errno
from pathlib import Path

import platformdirs

from toolview.private_files import private_dir, touch_private

__all__ = ["default_db_path", "prepare_private"]


def default_db_path() -> Path:
    """The log file under the user's data directory."""
    return Path(platformdirs.user_data_dir("toolview")) / "observations.db"


def prepare_private(path: Path) -> None:
    """The log's folder and files, readable by their owner only (``toolview.private_files``).

    The file is created 0600 *before* SQLite opens it: SQLite creates its
    ``-wal`` and ``-shm`` with the database file's own mode, so they are
    0600 from their first byte too, whatever the umask. Leftovers of an
    older toolview (0644) are tightened. The default data folder is
    toolview's own: created if missing (0700) and tightened if it exists. A
    folder given with ``--db`` is the user's and is never created: a typo
    would otherwise start an empty log in a new place (``FileNotFoundError``).
    """
    if path.parent == default_db_path().parent:
        private_dir(path.parent, tighten=True)
    elif not path.parent.is_dir():
        missing = "the log's folder does not exist (toolview creates only its own data folder)"
        raise FileNotFoundError(errno.ENOENT, missing, str(path.parent))
    touch_private(path)
    for suffix in ("-wal", "-shm"):
        leftover = path.with_name(path.name + suffix)
        if leftover.exists():
            touch_private(leftover)
