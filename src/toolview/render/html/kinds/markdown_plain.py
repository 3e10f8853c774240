"""Markdown that is only prose, drawn without the parser: what markdown-it and nh3 make of it.

Most chat messages hold no Markdown at all (on the 5,000-call session, 3,192
of 3,420 sources take this path: words, spaces, ``.,;:?'"()-#`` and the
like), yet parsing one with markdown-it runs every block and inline rule over it, and nh3 then
parses its HTML again. A source made only of letters, digits, spaces,
newlines and punctuation no CommonMark rule reads inside a line (no
``*_`[]<>&\\|~``, no tab), with no line that could open a block (a list item
``1.``, ``-`` or ``+``, a heading ``#``, a rule or an underline ``-``/``=``, an
indented code block), is paragraphs of text: blank lines part them, a line's
leading spaces and its trailing ones go, and a line end is ``<br>`` (two
trailing spaces, or ``breaks``) or a newline — the sanitized HTML the parser's
would be. It cannot hold markup: no ``<``, ``>`` or ``&`` gets in. Anything
else returns ``None`` and goes to the parser and the sanitizer.
``tests/render/html/test_markdown_plain.py`` holds the two equal on any text.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["plain_markdown_html"]

_PROSE: Final = re.compile(r"(?:[^\W_]|[ \n.,;:?'\"()/%$@{}^=+#!-])*")
# what could open a block: indented code, a list item, a heading, a rule or a setext underline
_BLOCK_START: Final = re.compile(r"^(?: {4}| *\d+[.)]| *[-=+#])", re.MULTILINE)
_BLANK: Final = re.compile(r"\n *(?:\n *)*\n")


def plain_markdown_html(source: str, *, breaks: bool) -> str | None:
    """The sanitized HTML of a prose-only ``source``; ``None`` when it may hold Markdown."""
    if _PROSE.fullmatch(source) is None or _BLOCK_START.search(source):
        return None
    paragraphs = (part.strip(" \n") for part in _BLANK.split(source))
    return "".join(f"<p>{_paragraph(p, breaks)}</p>\n" for p in paragraphs if p)


def _paragraph(text: str, breaks: bool) -> str:
    """One paragraph's lines, joined by a soft or a hard break (markdown-it's ``newline``)."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines[:-1]:
        kept = line.lstrip(" ").rstrip(" ")
        hard = breaks or len(line) - len(line.rstrip(" ")) >= 2
        out.append(kept + ("<br>\n" if hard else "\n"))
    out.append(lines[-1].lstrip(" "))
    return "".join(out)
