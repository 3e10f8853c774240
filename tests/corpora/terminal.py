"""Terminal escape payloads: every OSC form, CSI, DCS and friends, C1, bidi, CR.

A surface that prints any of these raw lets a tool retitle the window, plant a
clickable link that lies about its target, write the clipboard (OSC 52), move
the cursor to overwrite what was shown, or reorder text with bidi overrides.
``FORBIDDEN`` lists the raw code points that must never survive into output
except the surface's own SGR colours.
"""

from __future__ import annotations

from typing import Final

__all__ = ["BIDI", "C0", "C1", "FORBIDDEN", "PAYLOADS"]

ESC: Final = "\x1b"
BEL: Final = "\x07"
ST: Final = ESC + "\\"
CSI8: Final = "\x9b"
OSC8BIT: Final = "\x9d"
DCS8: Final = "\x90"
ST8: Final = "\x9c"

C0: Final = [chr(code) for code in range(0x20) if chr(code) not in "\n\t"] + ["\x7f"]
C1: Final = [chr(code) for code in range(0x80, 0xA0)]
BIDI: Final = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
]

_OSC: Final = [
    ESC + "]0;pwned title" + BEL,
    ESC + "]1;pwned icon" + BEL,
    ESC + "]2;pwned title" + ST,
    ESC + "]8;;https://evil.example/\x07click me" + ESC + "]8;;" + BEL,
    ESC + "]8;id=1;http://127.0.0.1:9/pwned" + ST + "looks safe" + ESC + "]8;;" + ST,
    ESC + "]52;c;cm0gLXJmIH4K" + BEL,
    ESC + "]52;p;cm0gLXJmIH4K" + ST,
    ESC + "]52;c;?" + BEL,
    ESC + "]4;1;rgb:ff/00/00" + BEL,
    ESC + "]10;?" + BEL,
    ESC + "]11;rgb:00/00/00" + ST,
    ESC + "]7;file://evil.example/etc" + BEL,
    ESC + "]9;notification: pwned" + BEL,
    ESC + "]777;notify;pwned;body" + BEL,
    ESC + "]1337;File=name=cHduZWQ=;inline=1:AAAA" + BEL,
    ESC + "]1337;SetUserVar=x=cHduZWQ=" + BEL,
    ESC + "]133;A" + BEL,
    ESC + "]50;font" + BEL,
    OSC8BIT + "0;8-bit osc title" + ST8,
    OSC8BIT + "52;c;cm0gLXJmIH4K" + BEL,
    ESC + "]0;unterminated osc title",
]

_CSI: Final = [
    ESC + "[2J" + ESC + "[H",
    ESC + "[1A" + ESC + "[2K" + "overwritten line",
    ESC + "[10;10H",
    ESC + "[?1049h",
    ESC + "[?25l",
    ESC + "[6n",
    ESC + "[21t",
    ESC + "[8m" + "hidden text" + ESC + "[28m",
    ESC + "[31mred" + ESC + "[0m",
    ESC + "[38;2;255;0;0mtruecolor" + ESC + "[0m",
    ESC + "[5mblink" + ESC + "[m",
    ESC + "[?2004h",
    ESC + "[?1000h",
    ESC + "[4i",
    ESC + "[3J",
    ESC + "[s" + ESC + "[u",
    CSI8 + "2J",
    CSI8 + "31m8-bit csi",
    ESC + "[" + "9" * 5000 + "m",
]

_DCS_AND_OTHERS: Final = [
    ESC + "P1$r0m" + ST,
    ESC + "Pq#0;2;0;0;0#1;2;100;100;0#1~~@@vv@@~~" + ST,
    ESC + "P+q544e" + ST,
    DCS8 + "1$qm" + ST8,
    ESC + "_APC payload" + ST,
    ESC + "^PM payload" + ST,
    ESC + "X SOS payload" + ST,
    ESC + "c",
    ESC + "7" + ESC + "8",
    ESC + "(0lqqk" + ESC + "(B",
    ESC + "#8",
    ESC + "=",
    ESC + "D" + ESC + "M" + ESC + "E",
    ESC,
    ESC + "[",
    ESC + "]",
]

_OVERWRITE: Final = [
    "rm -rf /\rls -la   ",
    "safe output\r" + ESC + "[2Kmalicious",
    "password: hunter2\r                 ",
    "abc\bd\be",
    "visible\x08\x08\x08\x08\x08\x08\x08hidden!",
    "line1\x0bline2\x0cline3",
    "\x00null\x00bytes",
    "bell\x07bell",
    "\x1a\x1c\x1d\x1e\x1f",
]

_BIDI_PAYLOADS: Final = [
    "access_level = \u202e\u2066user\u2069\u2066// admin",
    "invoice_\u202egnp.exe",
    "\u2067evil\u2069 normal",
    "\u202d override \u202c",
    "\u061cArabic letter mark",
    "zero\u200bwidth\u200djoiner\ufeff",
]

PAYLOADS: Final[list[str]] = [
    *_OSC,
    *_CSI,
    *_DCS_AND_OTHERS,
    *_OVERWRITE,
    *_BIDI_PAYLOADS,
    *(f"C0 {char} here" for char in C0),
    *(f"C1 {char} here" for char in C1),
]

FORBIDDEN: Final = frozenset([*C0, *C1, *BIDI])
