"""Files only their owner may read: the observation log and ``--record`` files.

Why: both hold tool output *before* redaction (redaction happens on the way
to a surface), so another user of the machine must not read them. One home
for the rule, used by the SQLite log (``wire.log.sqlite``) and by every
command that records (``toolview run --record``). A top-level leaf beside
``safety`` (which stays free of I/O): it imports nothing of toolview and only
the standard library, so the CLI can use it without importing the wire
(httpx, redis…), which would add a second to ``toolview run --record``.

How, and why this way:

* A file is *created* 0600 by ``os.open(..., O_CREAT, 0o600)`` — atomically,
  never "create then chmod": a file that is 0644 even for a moment can be
  opened by another user, who keeps the descriptor after any chmod. The mode
  is then set exactly (``fchmod``): a umask can only remove bits, and one
  like ``0o200`` would otherwise leave the owner unable to write.
* The process umask is not touched: it is process-wide, so changing it
  around an ``open`` races every other thread creating files.
* An existing *regular* file is tightened to 0600 (it is ours: an older
  toolview created it 0644); anything else (``/dev/null``, a FIFO, a
  terminal) is left alone — a record sent there is the user's choice. A
  record (``open_private``) that exists is replaced by a new file rather
  than tightened: a descriptor opened while it was readable would survive
  the chmod, and a planted link's target must not be written.
* The library (``capture(record=…, report=…)``) asks for ``only_regular``:
  nobody chose a FIFO or a device there (a FIFO with no reader would hang
  the agent at ``with``), so anything but a regular file or a link is
  refused with ``NotRegularFile`` — without opening it, so nothing blocks.
* A folder toolview creates is 0700 (the XDG base-directory rule for data
  folders); a folder that already exists is the user's and is left alone,
  except toolview's own default data folder (``tighten=True``).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Final

__all__ = [
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "NotRegularFile",
    "open_private",
    "private_dir",
    "touch_private",
]

PRIVATE_FILE: Final = 0o600
PRIVATE_DIR: Final = 0o700


class NotRegularFile(OSError):
    """``open_private(only_regular=True)`` found a FIFO, a folder, a device or a socket."""


def private_dir(path: Path, *, tighten: bool = False) -> None:
    """Make the folder ``path`` and any missing parent 0700; an existing one only if ``tighten``."""
    missing: list[Path] = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE_DIR)
        except FileExistsError:  # made meanwhile by someone else: theirs, not ours
            continue
        os.chmod(folder, PRIVATE_DIR)  # exactly 0700 whatever the umask took away
    if tighten and not missing and stat.S_IMODE(path.stat().st_mode) != PRIVATE_DIR:
        os.chmod(path, PRIVATE_DIR)


def open_private(path: Path, *, only_regular: bool = False) -> BinaryIO:
    """``path`` opened for writing from empty, 0600; see the module docstring.

    A new file is created with ``O_EXCL`` (never through a link planted
    meanwhile). An existing regular file, or a link to one, is *replaced* by
    a new 0600 file, never truncated and tightened in place: someone who
    opened the old file while it was readable keeps reading the old inode,
    and a link's target is not touched. Anything else (``/dev/null``, a FIFO)
    is written through, as it is — or, ``only_regular``, refused.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE)
    except FileExistsError:
        return _replace_regular(path) if only_regular else _open_existing(path)
    return _private_stream(fd)


def _replace_regular(path: Path) -> BinaryIO:
    """Replace a regular file or a link (never followed); refuse anything else unopened."""
    kind = stat.S_IFMT(os.lstat(path).st_mode)
    if kind not in (stat.S_IFREG, stat.S_IFLNK):
        what = _KINDS.get(kind, "not a regular file")
        raise NotRegularFile(f"{path} is {what}: toolview writes only to a regular file")
    return _replace(path)


_KINDS: Final = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFDIR: "a folder",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def _open_existing(path: Path) -> BinaryIO:
    if stat.S_ISREG(os.stat(path).st_mode):
        return _replace(path)
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)  # no O_TRUNC: not a regular file...
    if stat.S_ISREG(os.fstat(fd).st_mode):  # ...unless it was swapped for one meanwhile
        os.close(fd)
        return _replace(path)
    return os.fdopen(fd, "wb")


def _replace(path: Path) -> BinaryIO:
    """A new 0600 file in ``path``'s folder, renamed over ``path`` before any write."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.replace(temporary, path)
    except BaseException:
        os.close(fd)
        os.unlink(temporary)
        raise
    return _private_stream(fd)


def _private_stream(fd: int) -> BinaryIO:
    try:
        _tighten(fd)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "wb")


def touch_private(path: Path) -> None:
    """Create ``path`` 0600 if it is missing, keep its content, tighten a regular file."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        _tighten(fd)
    finally:
        os.close(fd)


def _tighten(fd: int) -> None:
    """Set a regular file's mode to exactly 0600; leave devices and pipes alone."""
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) != PRIVATE_FILE:
        os.fchmod(fd, PRIVATE_FILE)
