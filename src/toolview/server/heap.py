"""Memory the server freed, given back to the system after work that frees much at once.

Why: ``serve --load`` parses whole files into observations in the server's
own process before it serves; once they are stored and dropped, glibc's
allocator keeps the freed pages (strings of a few KB come from its heap,
whose free middle is never returned by itself): loading a 5,000-call file
left 64 MiB resident that nothing used, 12 MiB after ``malloc_trim``. The
server's resident memory is what a machine pays for, so after such work the
freed pages are handed back. Elsewhere (another C library, no ``ctypes``)
this does nothing: memory is then as it was.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

__all__ = ["give_back"]


def give_back() -> bool:
    """Return the allocator's free pages to the system; whether it could (glibc only)."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, looked up once; ``None`` where there is none.

    The process's own symbols (``CDLL(None)``: libc is linked in), not
    ``ctypes.util.find_library``, which runs ``ldconfig`` in a subprocess.
    """
    try:
        return getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (OSError, TypeError):  # no dynamic loading of the process itself here
        return None
