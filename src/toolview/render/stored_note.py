"""The note of an output stored apart: its file (home-shortened), its size, whether it is here.

Words, once, for every surface (``render.notes``): a reader of ``show`` in a
terminal sees the same path and size as the live page, which also offers the
whole output on demand. The path is the session's (the writing machine's): it
is cleaned (no control or bidi character crosses) and its middle is cut when
long, since the file's name at its end is what a reader looks for.
"""

from __future__ import annotations

import os.path
from typing import Final

import msgspec

from toolview.contract import StoredOutput
from toolview.render.clean import clean_field

__all__ = ["PATH_CHARS", "home_short", "stored_note"]

PATH_CHARS: Final = 160
"""How much of a stored file's path a note shows; a longer one loses its middle."""
_HEAD: Final = 40


def home_short(path: str, home: str | None = None) -> str:
    """``path`` with the user's home folder spelled ``~`` (``/home/ann/x`` → ``~/x``)."""
    home = os.path.expanduser("~") if home is None else home  # not pathlib: start-up
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def stored_note(stored: StoredOutput, home: str | None = None) -> str:
    """``output stored apart in ~/…/tool-results/x.txt (35,109 bytes); …``."""
    path = home_short(stored.path, home)
    if len(path) > PATH_CHARS:
        path = f"{path[:_HEAD]}…{path[len(path) - (PATH_CHARS - _HEAD - 1) :]}"
    shown = clean_field(path, PATH_CHARS + 1, "show")
    size = "" if isinstance(stored.size, msgspec.UnsetType) else f" ({stored.size:,} bytes)"
    here = "the whole output is shown" if stored.whole else "only its preview is here"
    return f"output stored apart in {shown}{size}; {here}"
