"""The ``file`` and ``diff`` kinds in Markdown: a bold path, then the content fenced."""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import truncation_omission
from toolview.render.markdown.escape import inline, window_block
from toolview.render.props import DiffProps, FileProps
from toolview.render.view import KindBody

__all__ = ["diff", "file"]

_FIELD = 500


def file(body: KindBody) -> list[str]:
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else "text"
    start = props.start_line if isinstance(props.start_line, int) else 1
    window = shown_text(props.content, body.limits)
    shown = window.text.count("\n") + (0 if window.text.endswith("\n") else 1)
    where = f" (lines {start:,}–{start + shown - 1:,})" if start > 1 else ""
    title = f"**{inline(clean_field(props.path, _FIELD))}**{inline(where)}"
    if not props.content:
        return [title, "_(empty file)_"]
    tool = truncation_omission(body.truncated)
    return [title, *window_block(window, clean_field(language, 30), tool)]


def diff(body: KindBody) -> list[str]:
    props: DiffProps = body.props
    title = (
        [f"**{inline(clean_field(props.path, _FIELD))}**"] if isinstance(props.path, str) else []
    )
    if not props.diff:
        return [*title, "_(empty diff)_"]
    tool = truncation_omission(body.truncated)
    return [*title, *window_block(shown_text(props.diff, body.limits), "diff", tool)]
