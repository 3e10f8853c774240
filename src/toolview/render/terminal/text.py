"""Untrusted strings as Rich ``Text``: the only way tool output reaches a console.

``Text`` never parses markup or emoji codes, and nothing here applies a
highlighter, so "[bold red]x[/]" comes out literally. The strings are already
cleaned by the core (secrets redacted, controls made visible).
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from toolview.contract import Truncation
from toolview.render.limits import Omission, Window, truncation_omission

__all__ = ["lines_text", "note_text", "omission_text", "truncation_text", "window_text"]

OMISSION_STYLE = "dim italic"
NOTE_STYLE = "yellow italic"


def omission_text(omission: Omission) -> Text:
    """ "… 4,000 more lines", styled as commentary."""
    return Text(str(omission), style=OMISSION_STYLE)


def truncation_text(truncated: Truncation | None) -> list[Text]:
    """The descriptor's truncation as a line, or nothing."""
    omission = truncation_omission(truncated)
    return [omission_text(omission)] if omission else []


def window_text(window: Window, style: str = "") -> Group:
    """A cleaned window, with the omission wording where it was cut."""
    body = window.text[:-1] if window.text.endswith("\n") else window.text
    parts: list[Text] = []
    if window.before:
        parts.append(omission_text(window.before))
    parts.append(Text(body, style=style))
    if window.after:
        parts.append(omission_text(window.after))
    return Group(*parts)


def lines_text(lines: list[str], style: str = "") -> Text:
    """Already-cleaned lines as one ``Text``."""
    return Text("\n".join(lines), style=style)


def note_text(note: str) -> Text:
    """A visible note, e.g. why the text is shown instead of a kind."""
    return Text(f"note: {note}", style=NOTE_STYLE)
