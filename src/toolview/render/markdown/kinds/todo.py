"""The ``todo`` kind in Markdown: a task list (``- [x]``), cancelled items struck through."""

from __future__ import annotations

from toolview.render.markdown.escape import inline, omission_md, truncation_md
from toolview.render.todo import TodoRow, todo_view
from toolview.render.view import KindBody

__all__ = ["todo"]


def todo(body: KindBody) -> list[str]:
    """The counts in italics, then a task list; each item's text escaped inline."""
    view = todo_view(body.props, body.limits)
    blocks = [f"_{inline(view.counts)}_"]
    if view.rows:
        blocks.append("\n".join(_item(row) for row in view.rows))
    return blocks + omission_md(view.more) + truncation_md(body.truncated)


def _item(row: TodoRow) -> str:
    """``- [x] text``; in progress ``- [ ] ◐ text _(in progress)_``; cancelled ``~~text~~``."""
    box = "[x]" if row.status == "completed" else "[ ]"
    text = inline(row.text)
    if row.status == "cancelled":
        text = f"~~{text}~~"
    glyph = f"{row.mark.glyph} " if row.status == "in_progress" else ""
    suffix = f" _({row.mark.suffix})_" if row.mark.suffix else ""
    return f"- {box} {glyph}{text}{suffix}"
