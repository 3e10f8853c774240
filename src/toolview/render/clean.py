"""Untrusted text made safe to show, at the cost of what is shown.

Every field a tool sends goes through ``toolview.safety.clean_text`` (secrets
redacted, terminal controls neutralised) — but only the window a surface
shows, plus a margin: a secret that straddles the edge of the window is
redacted whole (the margin lets the pattern see all of it) and the cut is
made again on the cleaned text, so no half-token is left behind.

A *field* (a name, kind, path, command, guard, reason, note, cell…) is drawn
in a one-line position — a header, a receipt, a title — so it is also kept on
ONE line: a line break in it would start a new line at column 0 and could draw
a complete fake call (``"x\\n✓ Success  bash"`` as a tool name). Each break is
shown (``␤``; ``␍``, ``␋``, ``<U+2028>``… as cleaning shows them) or, for a
field that is prose, replaced by a space. This is the one place that does it:
every surface gets its fields from here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, Literal, TypeAlias

from toolview.render.limits import Limits, Omission, Window, head, tail
from toolview.safety import clean_text
from toolview.safety.invisible import show_codepoint
from toolview.safety.output import clean_output, clip_runs

__all__ = [
    "LINE_BREAKS",
    "REDACTION_MARGIN",
    "Breaks",
    "clean_field",
    "clean_lines",
    "clean_window",
    "one_line_field",
    "shown_output",
    "shown_text",
]

# Long enough for any credential the safety patterns know (a PEM key included).
REDACTION_MARGIN: Final = 8192

Breaks: TypeAlias = Literal["show", "space"]

LINE_BREAKS: Final = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character some viewer starts a new line at (``str.splitlines``'s set)."""

_BREAK: Final = re.compile(f"[{LINE_BREAKS}]")
_NEWLINE_MARK: Final = "\u2424"  # ␤ SYMBOL FOR NEWLINE


def _shown_break(match: re.Match[str]) -> str:
    """``␤`` for a newline, the control picture of a C0 break, else ``<U+XXXX>``."""
    char = match.group()
    if char == "\n":
        return _NEWLINE_MARK
    return chr(0x2400 + ord(char)) if ord(char) < 0x20 else show_codepoint(char)


_SEPARATORS: Final = {0x2028: show_codepoint("\u2028"), 0x2029: show_codepoint("\u2029")}


def clean_lines(text: str) -> str:
    """``clean_text``, with the Unicode line and paragraph separators shown (``<U+2028>``).

    Output keeps its ``\\n`` lines; U+2028/U+2029 break a line only for some
    viewers (editors, JavaScript, ``str.splitlines``), so a line that starts
    there for one reader and not another is shown as what it is instead.
    """
    return clean_text(text).translate(_SEPARATORS)


def one_line_field(cleaned: str, breaks: Breaks = "show") -> str:
    """Already-cleaned text with no line break left: each shown, or a space."""
    if breaks == "space":
        return _BREAK.sub(" ", cleaned)
    return _BREAK.sub(_shown_break, cleaned)


def clean_field(text: str, max_chars: int, breaks: Breaks = "show") -> str:
    """A one-line field (a name, a path, a command) cleaned, on one line, cut to ``max_chars``.

    ``breaks="space"`` for prose (a refusal's reason, a note): its line breaks
    read as spaces; otherwise each is shown (``␤``), so an odd name looks odd.
    A short field is cleaned once per distinct value (``_short_field``).
    """
    if len(text) <= _MEMO_CHARS:
        return _short_field(text, max_chars, breaks)
    return _clean_field(text, max_chars, breaks)


def _clean_field(text: str, max_chars: int, breaks: Breaks) -> str:
    cleaned = one_line_field(clean_text(text[: max_chars + REDACTION_MARGIN]), breaks)
    if len(text) <= max_chars:
        return cleaned
    return f"{cleaned[:max_chars]} {Omission(len(text) - max_chars, 'chars')}"


# Why: a tool's name and its kind are a handful of short values drawn on every call
# (header, body kind, title), each paying a redaction scan and a neutralizing pass. Cleaning
# is a pure function of the text (the patterns are fixed at import), so the answer is kept.
_MEMO_CHARS: Final = 64
_short_field = lru_cache(maxsize=2048)(_clean_field)


def shown_text(text: str, limits: Limits, keep: Literal["head", "tail"] = "head") -> Window:
    """The cleaned window of ``text`` a surface shows, and what it left out."""
    cut = head if keep == "head" else tail
    window = cut(text, limits.max_lines, limits.max_chars)
    return clean_window(text, window, keep)


def clean_window(text: str, window: Window, keep: Literal["head", "tail"]) -> Window:
    """Clean ``window`` (a slice of ``text``) with the margin, then cut it again."""
    extended = _with_margin(text, window, keep)
    cleaned = clean_lines(extended)
    if len(extended) == len(window.text):
        return Window(cleaned, window.before, window.after)
    again = _recut(window, extended, cleaned, keep)
    return Window(again.text, window.before, window.after)


def shown_output(text: str, limits: Limits, keep: Literal["head", "tail"] = "tail") -> Window:
    """The window of command output a surface shows: its final frame, colours kept as runs.

    Like ``shown_text`` (cut first, cleaned with the margin, cut again), but
    cleaned by ``safety.clean_output``: ``\\r``/``\\b`` applied, SGR colours
    kept in ``Window.styles``. The raw window is cut by lines before any
    overwriting, so a line over the limit is cut as any other text.
    """
    cut = head if keep == "head" else tail
    window = cut(text, limits.max_lines, limits.max_chars)
    extended = _with_margin(text, window, keep)
    cleaned = clean_output(extended)
    if len(extended) == len(window.text):
        return Window(cleaned.text, window.before, window.after, cleaned.runs)
    again = _recut(window, extended, cleaned.text, keep)
    start = 0 if keep == "head" else len(cleaned.text) - len(again.text)
    styles = clip_runs(cleaned.runs, start, start + len(again.text))
    return Window(again.text, window.before, window.after, styles)


def _with_margin(text: str, window: Window, keep: Literal["head", "tail"]) -> str:
    """The window's side of ``text`` with ``REDACTION_MARGIN`` more: a secret cut in two is seen."""
    size = len(window.text)
    if keep == "head":
        return text[: size + REDACTION_MARGIN]
    return text[max(0, len(text) - size - REDACTION_MARGIN) :]


def _recut(window: Window, extended: str, cleaned: str, keep: Literal["head", "tail"]) -> Window:
    """``cleaned`` (the margin's text, cleaned) cut to the window's lines again.

    Room grows by what cleaning added (a redaction mark is longer than a short secret).
    """
    lines = window.text.count("\n") + (0 if window.text.endswith("\n") else 1)
    room = len(window.text) + max(0, len(cleaned) - len(extended))
    return head(cleaned, lines, room) if keep == "head" else tail(cleaned, lines, room)
