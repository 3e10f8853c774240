"""UTF-8 at the edges of a window: whole characters only, counted in raw bytes.

Why apart: the window works on raw bytes so its counts are exact; these
helpers decide where a character starts and ends when a cut or a read falls
inside one, so nothing shown is ever a broken character.
"""

from __future__ import annotations

import codecs

__all__ = ["continuation_prefix", "count_lines", "decode", "incomplete_utf8_suffix"]


def decode(data: bytes, *, final: bool) -> tuple[str, int]:
    """Decode UTF-8 (errors replaced); unless final, hold back a split last character.

    Returns the text and how many trailing bytes were held back, so a
    multibyte character split across reads is shown whole on the next view
    instead of as a replacement character.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    text = decoder.decode(data, final)
    return text, len(decoder.getstate()[0])


def incomplete_utf8_suffix(data: bytes) -> int:
    """How many trailing bytes of ``data`` start a UTF-8 character not yet complete.

    An incomplete character is at most 3 bytes long, so decoding the last 3
    bytes incrementally tells exactly what a full decode would hold back.
    """
    return decode(data[-3:], final=False)[1]


def continuation_prefix(data: bytes) -> int:
    """How many UTF-8 continuation bytes open ``data`` (a cut inside a character)."""
    count = 0
    while count < min(3, len(data)) and data[count] & 0xC0 == 0x80:
        count += 1
    return count


def count_lines(data: bytes) -> int:
    """Lines in ``data``; a last line without a newline counts too."""
    return data.count(b"\n") + (1 if data and data[-1] != 10 else 0)
