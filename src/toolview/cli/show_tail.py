"""The complete lines of a growing file, as they are written (``tail -f``), until idle.

Why ``watchfiles`` (its Rust ``notify`` core: inotify, FSEvents, …) and not a
sleep loop: a line is read the moment it is written, and nothing runs while
the file is still. The file's folder is watched, not the file, so a change is
seen however the writer makes it; the watcher also wakes at least once a
second (``rust_timeout``) to read again, which covers a change made between
the last read and the watch starting, and keeps time for ``--idle``.

A half-written last line waits for its newline: only complete lines are
handed on (the piece after the last newline is read again, whole, later).
A file that shrinks was cut, and a file whose name now opens another file
(an editor's save) was replaced: what was read no longer describes it, so
following stops with ``TailError`` rather than mixing two files.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import BinaryIO, Final

__all__ = ["TailError", "tail_lines"]

WAKE_MS: Final = 1_000
DEBOUNCE_MS: Final = 100  # at most this long between a write and its line, while writes go on
STEP_MS: Final = 20


class TailError(OSError):
    """The followed file cannot be followed on (it shrank, or was removed)."""


def tail_lines(path: Path, idle: float | None) -> Iterator[bytes]:
    """Each complete line of ``path`` (with its ``\\n``), from the start, then as written;
    ends once nothing was written for ``idle`` seconds (None: never)."""
    from watchfiles import watch

    wake = WAKE_MS if idle is None else max(STEP_MS, min(WAKE_MS, int(idle * 1000)))
    watcher = watch(
        path.parent,
        watch_filter=lambda _change, changed: Path(changed).name == path.name,
        debounce=DEBOUNCE_MS,
        step=STEP_MS,
        rust_timeout=wake,
        yield_on_timeout=True,
        recursive=False,
    )
    with open(path, "rb") as stream:
        last = time.monotonic()
        pending = b""
        while True:
            pending, read = yield from _complete_lines(stream, pending)
            now = time.monotonic()
            if read:
                last = now
            elif idle is not None and now - last >= idle:
                return
            _check_same(path, stream)
            next(watcher)  # a change to the file, or the wake-up: read again either way


def _complete_lines(stream: BinaryIO, pending: bytes) -> Generator[bytes, None, tuple[bytes, bool]]:
    """Yield every complete line there is now; return what is left over and whether anything
    was read (a generator's return value, through ``yield from``)."""
    read = False
    while True:
        line = stream.readline()
        if not line:
            return pending, read
        read = True
        if not line.endswith(b"\n"):  # half-written: wait for the rest
            pending += line
            continue
        if pending:
            line, pending = pending + line, b""
        yield line


def _check_same(path: Path, stream: BinaryIO) -> None:
    """``TailError`` if the file at ``path`` is no longer the one read, or is shorter."""
    import os

    position = stream.tell()
    try:
        now = path.stat()
    except OSError as exc:
        raise TailError(f"{path}: {exc.strerror or exc}; stopped following") from None
    if now.st_ino != os.fstat(stream.fileno()).st_ino:
        raise TailError(f"{path} was replaced by another file; stopped following")
    if now.st_size < position:
        raise TailError(f"{path} shrank ({position:,} → {now.st_size:,} bytes): cut; stopped")
