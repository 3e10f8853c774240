"""Markdown on the terminal (the ``markdown`` kind, and every message): Rich's ``Markdown``.

Safe by construction: the text reaching it is cleaned first (``shown_text``:
secrets redacted, terminal escapes and controls taken out), and hyperlinks
are off, so a link is its text and its address in plain words, never an OSC 8
sequence a terminal would follow. Code blocks are highlighted in the ANSI
theme (the terminal's own 16 colours).

Parsed as the html surface parses it (``html`` off): Rich's own parser reads
raw HTML as HTML and drops it, so ``<div>`` blocks in a message would vanish;
here they are text, shown as written. A message keeps its line breaks
(``breaks``): a chat's single newline is a new line, as on the page.
"""

from __future__ import annotations

from typing import Final

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text

from toolview.contract import MarkdownProps
from toolview.render.clean import shown_text
from toolview.render.limits import truncation_omission
from toolview.render.terminal.styled import cut_text
from toolview.render.view import KindBody

__all__ = ["markdown", "markdown_renderable"]

_CODE_THEME: Final = "ansi_dark"
_PARSER: Final = MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")


def markdown_renderable(text: str, style: str = "", *, breaks: bool = False) -> Markdown:
    """Cleaned Markdown ``text``, raw HTML as text, hyperlinks off, in the base ``style``;
    ``breaks``: a single newline breaks the line."""
    document = Markdown("", hyperlinks=False, code_theme=_CODE_THEME, style=style or "none")
    document.markup = text
    document.parsed = _PARSER.parse(text)
    if breaks:
        _hard_breaks(document.parsed)
    return document


def _hard_breaks(tokens: list[Token]) -> None:
    for token in tokens:
        for child in token.children or ():
            if child.type == "softbreak":
                child.type = "hardbreak"


def markdown(body: KindBody) -> RenderableType:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return Text("(empty document)", style="dim")
    window = shown_text(props.markdown, body.limits)
    cut = cut_text(window.after, truncation_omission(body.truncated))
    return Group(markdown_renderable(window.text), *cut)
