"""Characters that change how text *reads* without being seen.

Bidi overrides, isolates and marks reorder what is displayed (the "Trojan
Source" trick: ``admin\u202e txt.exe`` reads backwards); zero-width spaces,
fillers and Unicode tag characters hide text from the eye -- tag characters
can carry a whole invisible prompt. Lone surrogates (which JSON's ``\\ud800``
escapes can smuggle into a str) cannot even be written as UTF-8. Every surface
shows them all as ``<U+XXXX>``.

Kept as they are, on purpose: ZWJ (U+200D) and ZWNJ (U+200C), which emoji
sequences and several scripts (Persian, Indic) need to render correctly, and
the emoji variation selectors U+FE00-U+FE0F.
"""

from __future__ import annotations

import re

__all__ = ["INVISIBLE_CLASS", "reveal_invisible", "show_codepoint", "show_control"]

INVISIBLE_CLASS = (
    "\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069"
    "\u115f\u1160\u180e\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    "\ud800-\udfff"
)
"""A regex character-class body (no brackets) of the characters shown visibly."""

_INVISIBLE = re.compile(f"[{INVISIBLE_CLASS}]")


def show_codepoint(char: str) -> str:
    """The visible stand-in for one hidden character: ``<U+202E>``."""
    return f"<U+{ord(char):04X}>"


def show_control(char: str) -> str:
    """The visible stand-in for a control: its picture for C0 and DEL (``␛``), else ``<U+…>``.

    One definition for every place that neutralizes terminal output
    (``safety.terminal`` and the colour-keeping ``safety.ansi``), so the two
    show a hostile character the same way.
    """
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else show_codepoint(char)


def _show(match: re.Match[str]) -> str:
    return show_codepoint(match.group())


def reveal_invisible(text: str) -> str:
    """Replace every invisible or reordering character with ``<U+XXXX>``."""
    return _INVISIBLE.sub(_show, text)
