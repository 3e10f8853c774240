"""Outputs Claude Code stored in ``<session>/tool-results/`` instead of the session.

The preview names the file by the absolute path it had on the machine that
wrote it. Only its *name* is used, and only inside this session's own
``tool-results/`` folder: a session folder (which anyone may hand you) can
never make toolview read another file. So each step is opened without
following a link (the session's folder, ``tool-results``, the file: a link
at any of them could point anywhere, ``/proc/self/environ`` or a private
note), the file without blocking (a FIFO would wait for a writer for ever),
and only a regular file is read (checked on the open file, so nothing can be
swapped in between). Anything else is a ``NotRead`` with its reason, which
the call shows beside its preview. What is read is bounded; a cut is said.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "MAX_STORED_BYTES",
    "NOT_HERE",
    "NotRead",
    "ReadStored",
    "StoredOutputs",
    "read_regular",
    "stored_name",
]

MAX_STORED_BYTES: Final = 8 * 1024 * 1024
_FOLDER: Final = "tool-results"
_NO_LINK: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
_DIRECTORY: Final = _NO_LINK | os.O_DIRECTORY
_FILE: Final = _NO_LINK | os.O_NONBLOCK | os.O_NOCTTY


@dataclass(frozen=True)
class NotRead:
    """Why a stored output was not read (``"it is not here"``): the call says it."""

    why: str


NOT_HERE: Final = NotRead("it is not here")
"""Missing, unreadable, or no folder to read it from (a session read without its own)."""

# how the mapper is lent the session's stored outputs: a recorded path -> the text, or why not
ReadStored = Callable[[str], "str | NotRead"]


def stored_name(recorded: str) -> str | NotRead:
    """The file name a preview's recorded path ends with, or why it cannot be one.

    Only the last part counts (the path is the writing machine's); a name that
    is empty, ``.``/``..``, too long or holds a NUL is no file's name.
    """
    name = recorded.replace("\\", "/").rsplit("/", 1)[-1]
    if "\0" in name:
        return NotRead("its name holds a NUL character")
    if not name or name in (".", "..") or len(name.encode("utf-8", "surrogatepass")) > 255:
        return NotRead("its name is not a file name")
    return name


class StoredOutputs:
    """``read(name)`` → the stored output's text, or ``NotRead`` saying why not."""

    def __init__(self, session_dir: Path, limit: int = MAX_STORED_BYTES) -> None:
        self.session_dir = session_dir
        self.folder = session_dir / _FOLDER
        self.limit = limit
        self.sizes: dict[str, int] = {}  # a file read -> its size in bytes (what a result says)

    def size(self, recorded: str) -> int | None:
        """The size in bytes of the stored file ``recorded`` names, once it was read."""
        name = stored_name(recorded)
        return None if isinstance(name, NotRead) else self.sizes.get(name)

    def __call__(self, recorded: str) -> str | NotRead:
        name = stored_name(recorded)
        if isinstance(name, NotRead):
            return name
        try:
            data, size = self._read(name)
        except _Refused as refused:
            return NotRead(refused.why)
        except (OSError, ValueError, UnicodeError):
            return NOT_HERE
        self.sizes[name] = size
        if len(data) <= self.limit:
            return data.decode("utf-8", errors="replace")
        text = data[: self.limit].decode("utf-8", errors="ignore")
        return (
            f"{text}\n[note: only the first {self.limit} bytes of the stored output "
            f"({size} bytes) are shown]"
        )

    def _read(self, name: str) -> tuple[bytes, int]:
        """The first ``limit + 1`` bytes of ``tool-results/<name>`` and its size."""
        session = _open(str(self.session_dir), _DIRECTORY, None, "the session's folder")
        try:
            folder = _open(_FOLDER, _DIRECTORY, session, f"{_FOLDER}/")
        finally:
            os.close(session)
        try:
            return _read_file(name, folder, self.limit + 1)
        finally:
            os.close(folder)


class _Refused(OSError):
    """A step that is there but is not what a session keeps (a link, a FIFO).

    An ``OSError``: a caller whose handling of "not there" is ``except
    OSError`` covers it too (``read_regular``); ``StoredOutputs`` says why.
    """

    def __init__(self, why: str) -> None:
        super().__init__(errno.EINVAL, why)
        self.why = why


def _read_file(name: str, folder: int | None, limit: int) -> tuple[bytes, int]:
    """The first ``limit`` bytes of the regular file ``name`` (in ``folder``), and its size.

    Opened not following a link and without blocking (a FIFO), then checked on
    the open file's own kind: nothing can be swapped in between.
    """
    handle = _open(name, _FILE, folder, "it")
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode):
        os.close(handle)
        raise _Refused("it is not a regular file")
    with os.fdopen(handle, "rb") as stream:
        return stream.read(limit), info.st_size


def _open(name: str, flags: int, folder: int | None, what: str) -> int:
    """``os.open`` not following a link at ``name``; a link found there is refused."""
    try:
        return os.open(name, flags, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(name, folder):
            raise _Refused(f"{what} is a symbolic link") from None
        if exc.errno == errno.ENOTDIR:
            raise _Refused(f"{what} is not a folder") from None
        raise


def _is_link(name: str, folder: int | None) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=folder).st_mode)
    except OSError:
        return False


def read_regular(path: Path, limit: int) -> bytes:
    """The first ``limit`` bytes of ``path`` if it is a regular file, not a link.

    For the small files beside a session (a sub-agent's ``.meta.json``): a
    FIFO put in one's place would block a plain ``open`` for ever, stopping
    ``show`` and the watcher. Anything else raises ``OSError``, as a missing
    file does, so a caller's handling of "not there" covers it.
    """
    return _read_file(str(path), None, limit)[0]
