"""The ``markdown`` kind in Markdown: the tool's own document kept, made inert and quoted."""

from __future__ import annotations

from toolview.render.clean import shown_text
from toolview.render.limits import truncation_omission
from toolview.render.markdown.escape import cut_md, markdown_source
from toolview.render.props import MarkdownProps
from toolview.render.view import KindBody

__all__ = ["markdown"]


def markdown(body: KindBody) -> list[str]:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return ["_(empty document)_"]
    window = shown_text(props.markdown, body.limits)
    quoted = "\n".join(
        f"> {line}" for line in markdown_source(window.text.rstrip("\n")).split("\n")
    )
    return [quoted, *cut_md(window.after, truncation_omission(body.truncated))]
