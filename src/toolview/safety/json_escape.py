"""JSON for a terminal: every character a terminal would obey written as a ``\\uXXXX`` escape.

Why: JSON escapes only C0 controls, ``"`` and ``\\``; a C1 control (U+009B is
CSI, U+009D is OSC to a terminal that reads 8-bit controls) or a bidi
override (U+202E: the "Trojan Source" reordering) passes raw into ``show
--json`` or ``sessions --json`` and reaches the terminal that prints it. The
text surfaces show such characters as ``<U+XXXX>``; JSON cannot change a
value, so it spells them as escapes instead — the same string to any JSON
reader, inert on a screen.

Why post-processing the encoded text is safe: outside its strings, JSON text
is ASCII punctuation, digits, ``true``/``false``/``null`` and whitespace, so
every character matched here (DEL, C1, invisible or bidi, U+2028/9) can only
stand inside a string, where ``\\uXXXX`` means exactly that character.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.safety.invisible import INVISIBLE_CLASS

__all__ = ["escape_json"]

_OBEYED: Final = re.compile(f"[\x7f-\x9f{INVISIBLE_CLASS}\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a tag character: written as its UTF-16 surrogate pair, as JSON spells it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json(text: str) -> str:
    """``text`` (encoded JSON) with DEL, C1, invisible and bidi characters as ``\\uXXXX``."""
    if text.isascii() and "\x7f" not in text:
        return text
    return _OBEYED.sub(_escape, text)
