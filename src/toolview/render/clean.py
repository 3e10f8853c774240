"""Untrusted text made safe to show, at the cost of what is shown.

Every field a tool sends goes through ``toolview.safety.clean_text`` (secrets
redacted, terminal controls neutralised) — but only the window a surface
shows, plus a margin: a secret that straddles the edge of the window is
redacted whole (the margin lets the pattern see all of it) and the cut is
made again on the cleaned text, so no half-token is left behind.
"""

from __future__ import annotations

from typing import Final, Literal

from toolview.render.limits import Limits, Omission, Window, head, tail
from toolview.safety import clean_text

__all__ = ["REDACTION_MARGIN", "clean_field", "clean_window", "shown_text"]

# Long enough for any credential the safety patterns know (a PEM key included).
REDACTION_MARGIN: Final = 8192


def clean_field(text: str, max_chars: int) -> str:
    """A short field (a name, a path, a command) cleaned and cut to ``max_chars``."""
    cleaned = clean_text(text[: max_chars + REDACTION_MARGIN])
    if len(text) <= max_chars:
        return cleaned
    return f"{cleaned[:max_chars]} {Omission(len(text) - max_chars, 'chars')}"


def shown_text(text: str, limits: Limits, keep: Literal["head", "tail"] = "head") -> Window:
    """The cleaned window of ``text`` a surface shows, and what it left out."""
    cut = head if keep == "head" else tail
    window = cut(text, limits.max_lines, limits.max_chars)
    return clean_window(text, window, keep)


def clean_window(text: str, window: Window, keep: Literal["head", "tail"]) -> Window:
    """Clean ``window`` (a slice of ``text``) with the margin, then cut it again."""
    size = len(window.text)
    if keep == "head":
        extended = text[: size + REDACTION_MARGIN]
    else:
        extended = text[max(0, len(text) - size - REDACTION_MARGIN) :]
    cleaned = clean_text(extended)
    if len(extended) == size:
        return Window(cleaned, window.before, window.after)
    lines = window.text.count("\n") + (0 if window.text.endswith("\n") else 1)
    room = size + max(0, len(cleaned) - len(extended))
    again = head(cleaned, lines, room) if keep == "head" else tail(cleaned, lines, room)
    return Window(again.text, window.before, window.after)
