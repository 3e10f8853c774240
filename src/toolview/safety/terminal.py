"""Make untrusted text safe to print on a terminal, or to show as plain text.

A terminal obeys what it is sent: CSI moves the cursor and clears the screen
(hiding earlier lines), OSC sets the window title, writes the clipboard
(OSC 52) and makes links whose target differs from their text (OSC 8), DCS
talks to the terminal itself. None of it may come from a tool.

Visible forms (one per kind, see docs/safety.md):

* whole escape sequences (CSI incl. SGR colours, OSC, DCS, SOS, PM, APC,
  two-byte ESC sequences) are removed; the surface adds its own colours later;
* an OSC/DCS/SOS/PM/APC that is not terminated (BEL or ST) within 4096
  characters, or before a newline, loses only its introducer, shown as ``␛]``
  (7-bit) or ``<U+009D>`` (8-bit) -- the rest stays visible, nothing is
  swallowed;
* other C0 controls become Unicode control pictures (``␛``, ``␇``, ``␈``,
  ``␀``...), DEL becomes ``␡``; tab and newline stay;
* ``\\r\\n`` becomes ``\\n``; a lone ``\\r`` becomes ``␍``, so ``abc\\rXYZ``
  cannot hide ``abc``;
* C1 controls (U+0080-U+009F) and invisible/bidi characters become ``<U+XXXX>``.
"""

from __future__ import annotations

import re

from toolview.safety.inert import inert
from toolview.safety.invisible import INVISIBLE_CLASS, show_control
from toolview.safety.secrets import redact
from toolview.safety.sequences import CSI_TAIL, ESCAPE_TAIL, STRING, STRING_OPEN

__all__ = ["clean_text", "neutralize_terminal"]

_SEQUENCE = re.compile(  # safety.sequences, grouped by what is shown; lone controls
    rf"(?P<drop>{STRING}"
    rf"|(?:\x1b\[|\x9b){CSI_TAIL})"
    rf"|(?P<open>{STRING_OPEN})"
    rf"|(?P<esc>\x1b{ESCAPE_TAIL})"
    r"|(?P<crlf>\r\n)"
    rf"|[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE_CLASS}]"
)


def _replace(match: re.Match[str]) -> str:
    kind = match.lastgroup
    if kind in ("drop", "esc"):
        return ""
    if kind == "open":
        return "\u241b" + match.group()[1]
    if kind == "crlf":
        return "\n"
    return show_control(match.group())


def neutralize_terminal(text: str) -> str:
    """Text with no escape sequence, control or bidi character left to obey.

    The output contains no ESC, no C1 control, no bidi/invisible character and
    no lone carriage return; ``\\n`` and ``\\t`` are kept. Linear time. Text with
    nothing to neutralize (``safety.inert``: most text) is returned as it is, unscanned.
    """
    if inert(text):
        return text
    return _SEQUENCE.sub(_replace, text)


def clean_text(text: str) -> str:
    """Neutralize, then redact: the order that hides what a reader will see.

    Redacting first would miss a secret split by escape codes
    (``ghp_abc\\x1b[0mdef...``): once the codes are gone the token is whole
    again on screen. Redacting the neutralized text checks exactly what is
    shown, and redaction cannot bring a control back (marks are plain ASCII).
    """
    return redact(neutralize_terminal(text))
