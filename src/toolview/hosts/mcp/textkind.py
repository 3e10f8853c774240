"""A lone text block that is plainly a unified diff → the built-in ``diff`` kind.

Servers such as ``mcp-server-git`` return diffs as text. Recognising the diff
*format* (never the tool's name) lets every surface colour it and bound it,
instead of showing hundreds of KB as one flat string. Only the head is looked
at, so the cost does not grow with the diff.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.contract import Descriptor, DiffProps

__all__ = ["text_descriptor"]

_HEAD_CHARS: Final = 64 * 1024
_GIT_HEADER: Final = re.compile(r"^diff --git a/\S", re.MULTILINE)
_HUNK: Final = re.compile(r"^--- \S.*\n\+\+\+ \S.*\n@@ -\d+(,\d+)? \+\d+(,\d+)? @@", re.MULTILINE)


def text_descriptor(text: str) -> Descriptor | None:
    """``diff`` when ``text`` holds a unified diff, else ``None`` (plain text)."""
    head = text[:_HEAD_CHARS]
    if _HUNK.search(head) or (_GIT_HEADER.search(head) and "\n+++ " in head):
        return Descriptor(kind="diff", props=DiffProps(diff=text))
    return None
