"""The ``markdown`` kind through Rich's ``Markdown``, with hyperlinks off."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text

from toolview.render.clean import shown_text
from toolview.render.limits import truncation_omission
from toolview.render.props import MarkdownProps
from toolview.render.terminal.styled import cut_text
from toolview.render.view import KindBody

__all__ = ["markdown"]


def markdown(body: KindBody) -> RenderableType:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return Text("(empty document)", style="dim")
    window = shown_text(props.markdown, body.limits)
    document = Markdown(window.text, hyperlinks=False, code_theme="ansi_dark")
    return Group(document, *cut_text(window.after, truncation_omission(body.truncated)))
