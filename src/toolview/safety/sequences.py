"""What an escape sequence is: one definition for the code that removes them and for redaction.

``safety.terminal`` removes every sequence from what a surface shows;
``safety.seen`` takes the same sequences out of what redaction scans (a
secret cut by colour codes is whole on screen). Both build their regexes
from the fragments here, so the two can never disagree on where a sequence
ends: CSI (``ESC[`` or 8-bit ``\\x9b``: SGR colours, erase, cursor moves),
OSC/DCS/SOS/PM/APC strings closed by BEL or ST within 4096 characters and
before a newline, two-byte (``ESC`` + intermediates + final) escapes. An
unterminated string's introducer (``ESC]``) is not a sequence: surfaces show
it, and the text after it. No sequence holds a newline.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.safety.patterns import LazyRegex

__all__ = [
    "CODES",
    "CODES_7BIT",
    "CSI_TAIL",
    "ESCAPE_TAIL",
    "STRING",
    "STRINGS",
    "STRING_BODY",
    "STRING_C1",
    "STRING_END",
    "STRING_MAX",
    "STRING_OPEN",
    "STRING_OPENERS",
    "TAKEN_OUT",
    "TAKEN_OUT_7BIT",
    "around_sequences",
    "has_sequence",
    "has_string",
]

STRING_MAX: Final = 4096
"""The longest OSC/DCS/SOS/PM/APC body: longer, it is not a sequence."""
STRING_OPENERS: Final = "]PX^_"
"""What follows ``ESC`` to open a string sequence (OSC, DCS, SOS, PM, APC)."""
STRING_C1: Final = "\x90\x98\x9d\x9e\x9f"
"""The same five as 8-bit introducers (DCS, SOS, OSC, PM, APC)."""
STRING_BODY: Final = f"[^\x07\x1b\x90\x98\x9c-\x9f\n]{{0,{STRING_MAX}}}+"  # possessive: no re-scan
"""An OSC/DCS/SOS/PM/APC body: longer, or across a line, it is not a sequence."""
STRING_END: Final = r"(?:\x07|\x1b\\|\x9c)"
CSI_TAIL: Final = r"[0-?]*+[ -/]*+[@-~]?"
"""After ``ESC[`` (or 8-bit CSI): parameters, intermediates, the final byte."""
ESCAPE_TAIL: Final = r"[ -/]*+[0-~]"
"""After ``ESC`` for a two-byte (or intermediate) escape."""

_OPENERS: Final = f"[{re.escape(STRING_OPENERS)}]"
STRING_OPEN: Final = rf"\x1b{_OPENERS}"
"""A 7-bit string sequence's introducer (``ESC]``…), alone: unterminated, it is shown."""
STRING: Final = rf"(?:{STRING_OPEN}|[{STRING_C1}]){STRING_BODY}{STRING_END}"
"""A whole string sequence, as a pattern to build on (``STRINGS`` compiled)."""
TAKEN_OUT: Final = LazyRegex(
    rf"{STRING}"
    rf"|(?:\x1b\[|\x9b){CSI_TAIL}"
    rf"|\x1b(?!{_OPENERS}){ESCAPE_TAIL}"
)
"""Every whole sequence, 7- and 8-bit: what ``safety.terminal`` drops."""
TAKEN_OUT_7BIT: Final = LazyRegex(
    rf"\x1b(?:\[{CSI_TAIL}|{_OPENERS}{STRING_BODY}{STRING_END}|(?!{_OPENERS}){ESCAPE_TAIL})"
)
"""``TAKEN_OUT`` for ASCII text (no 8-bit form can occur): led by a literal
``ESC``, which the regex engine finds at ``memchr`` speed -- three times
faster than the first-character set of ``TAKEN_OUT`` on colour-heavy text."""

CODES: Final = LazyRegex(rf"(?:(?:\x1b\[|\x9b){CSI_TAIL}|\x1b(?!{_OPENERS}){ESCAPE_TAIL})+")
"""A run of CSIs and two-byte escapes: codes with no text in them (a string
sequence's body is text: a link's target, a title)."""
CODES_7BIT: Final = LazyRegex(rf"(?:\x1b(?:\[{CSI_TAIL}|(?!{_OPENERS}){ESCAPE_TAIL}))+")
"""``CODES`` for ASCII text, led by its literal ``ESC``."""
STRINGS: Final = LazyRegex(STRING)
"""A whole string sequence: OSC (titles, OSC 8 links, OSC 52), DCS, SOS, PM, APC."""
_STRING_OPENERS: Final = tuple("\x1b" + opener for opener in STRING_OPENERS)
_REACH: Final = STRING_MAX + 8  # a string sequence's longest body, its introducer and terminator
_INTRODUCERS: Final = "\x1b\x9b" + STRING_C1


def has_sequence(text: str) -> bool:
    """Could ``text`` hold a sequence? ``ESC``, or an 8-bit CSI or OSC introducer.

    Two or three ``in`` tests, each a ``memchr`` (a loop or a character-class
    search costs several times more on the text that has none: most text).
    An 8-bit DCS, SOS, PM or APC (U+0090, U+0098, U+009E, U+009F) is not
    looked for: no tool writes one alone, and ``safety.terminal`` removes it
    whole; taken out of a text that has another sequence all the same.
    """
    return "\x1b" in text or (not text.isascii() and ("\x9b" in text or "\x9d" in text))


def has_string(text: str) -> bool:
    """Could ``text`` hold a string sequence? Most coloured output has codes only."""
    if any(opener in text for opener in _STRING_OPENERS):
        return True
    return not text.isascii() and any(char in text for char in STRING_C1)


def _sequence_at(text: str, position: int) -> re.Match[str] | None:
    """The sequence ``position`` is strictly inside, if any: read from the last
    introducer at most ``_REACH`` characters back (no body holds one)."""
    reach = max(0, position - _REACH)
    introducer = max(text.rfind(char, reach, position) for char in _INTRODUCERS)
    found = TAKEN_OUT.match(text, introducer) if introducer >= 0 else None
    return found if found is not None and found.end() > position else None


def around_sequences(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened over any sequence it would cut: an ``ESC`` left
    before a mark reads the mark's ``[r`` as a CSI; an OSC's opener left eats
    the text after the mark."""
    before, after = _sequence_at(text, start), _sequence_at(text, end)
    return (
        before.start() if before is not None else start,
        after.end() if after is not None else end,
    )
