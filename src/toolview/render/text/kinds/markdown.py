"""The ``markdown`` kind as plain text: the document's source, cleaned, never rendered."""

from __future__ import annotations

from toolview.render.clean import shown_text
from toolview.render.limits import truncation_omission
from toolview.render.props import MarkdownProps
from toolview.render.text.lines import window_lines
from toolview.render.view import KindBody

__all__ = ["markdown"]


def markdown(body: KindBody) -> list[str]:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return ["(empty document)"]
    return window_lines(
        shown_text(props.markdown, body.limits), truncation_omission(body.truncated)
    )
