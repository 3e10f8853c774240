"""Where a command's input comes from: a path, or ``-`` for standard input.

Imported by the command line's entry point itself (for ``InputError``), so it
imports nothing that start-up would pay for.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

__all__ = ["InputError", "open_input"]


class InputError(OSError):
    """The named input cannot be read; the message says why."""


@contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """Open ``path`` for binary reading, or standard input for ``-``."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below; open errors reworded
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    with stream:
        yield stream
