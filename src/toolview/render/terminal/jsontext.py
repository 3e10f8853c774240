"""JSON on the terminal, highlighted: Rich's ``JSONHighlighter`` over the bounded lines.

The text is ``render.jsonview``'s (cut, redacted, cleaned) before any style
is laid over it; the highlighter only adds styles (``json.key``,
``json.str``, ``json.number``, ...), which the console's theme draws in the
terminal's own 16 colours. A key, a string, a number and a constant read
apart on light and dark terminals alike.
"""

from __future__ import annotations

from typing import Final

from rich.highlighter import JSONHighlighter
from rich.text import Text

from toolview.render.terminal.fit import FitText

__all__ = ["highlight_json", "json_text"]

_HIGHLIGHTER: Final = JSONHighlighter()


def json_text(lines: list[str], style: str = "") -> Text:
    """Already bounded, cleaned JSON ``lines`` as one highlighted ``Text``."""
    return highlight_json(FitText("\n".join(lines), style=style))


def highlight_json(text: Text) -> Text:
    """``text`` (JSON) with its keys, strings, numbers and constants styled, in place."""
    _HIGHLIGHTER.highlight(text)
    return text
