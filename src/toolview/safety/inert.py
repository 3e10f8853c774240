"""Whether text holds anything to neutralize: the common case, answered without a parser.

Most tool output is printable text, tabs and newlines. ``safety.terminal``
and ``safety.ansi`` act only at a control (C0 but tab and newline, DEL, C1),
an invisible or bidi character, or (``ansi``) a line separator — every
sequence they read starts at one — so text with none of them comes out of
both unchanged, and this check lets them skip their scan. For ASCII text it
is a byte deletion in C (``bytes.translate``), a few microseconds for 8 KB; a
character-class search costs ten times that and the parsers' own scan a
hundred and more. Tests hold each fast path equal to its parser.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.safety.invisible import INVISIBLE_CLASS

__all__ = ["inert"]

_ASCII_CONTROLS: Final = bytes([*range(0x09), *range(0x0B, 0x20), 0x7F])
_CONTROL: Final = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE_CLASS}\u2028\u2029]")


def inert(text: str) -> bool:
    """True if ``text`` has no control but tab and newline, no invisible character, no U+2028/9."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _ASCII_CONTROLS)) == len(data)
    return _CONTROL.search(text) is None
