"""The ``todo`` kind as plain lines: the counts, then one ASCII-marked line per item."""

from __future__ import annotations

from toolview.render.text.lines import truncation_lines
from toolview.render.todo import TodoRow, todo_view
from toolview.render.view import KindBody

__all__ = ["todo"]


def todo(body: KindBody) -> list[str]:
    """``3/7 done``, then ``[x] item``, ``[~] Doing it (in progress)``… — ASCII marks only."""
    view = todo_view(body.props, body.limits)
    lines = [view.counts, *(_line(row) for row in view.rows)]
    if view.more is not None:
        lines.append(str(view.more))
    return lines + truncation_lines(body.truncated)


def _line(row: TodoRow) -> str:
    suffix = f" ({row.mark.suffix})" if row.mark.suffix else ""
    return f"{row.mark.ascii} {row.text}{suffix}"
