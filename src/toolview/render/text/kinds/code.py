"""The ``file`` and ``diff`` kinds as plain lines: a file numbered from its start line, a diff."""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import truncation_omission
from toolview.render.props import DiffProps, FileProps
from toolview.render.text.lines import cut_lines, truncation_lines, window_lines
from toolview.render.view import KindBody

__all__ = ["diff", "file"]

_FIELD = 500


def file(body: KindBody) -> list[str]:
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else None
    title = clean_field(props.path, _FIELD) + (
        f" ({clean_field(language, 40)})" if language else ""
    )
    window = shown_text(props.content, body.limits)
    start = props.start_line if isinstance(props.start_line, int) else 1
    text = window.text[:-1] if window.text.endswith("\n") else window.text
    rows = text.split("\n") if props.content else []
    width = len(str(start + max(len(rows) - 1, 0)))
    lines = [title, *(f"{start + i:>{width}} │ {row}" for i, row in enumerate(rows))]
    if not rows:
        lines.append("(empty file)")
    return lines + cut_lines(window.after, truncation_omission(body.truncated))


def diff(body: KindBody) -> list[str]:
    props: DiffProps = body.props
    title = [clean_field(props.path, _FIELD)] if isinstance(props.path, str) else []
    if not props.diff:
        return [*title, "(empty diff)", *truncation_lines(body.truncated)]
    tool = truncation_omission(body.truncated)
    return title + window_lines(shown_text(props.diff, body.limits), tool)
