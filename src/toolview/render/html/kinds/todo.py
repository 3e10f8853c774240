"""The ``todo`` kind in HTML: a real list, each status said in words for assistive tech.

Each item is an ``<li>`` whose glyph is an image with the status as its
label (``role="img" aria-label="Completed"``), so the status is never told by
colour (or shape) alone; in progress and cancelled also say so in visible
words, and a cancelled item is struck through (``<s>``).
"""

from __future__ import annotations

from toolview.render.html.markup import esc, omission_html, truncation_html
from toolview.render.todo import TodoRow, todo_view
from toolview.render.view import KindBody

__all__ = ["render_todo"]


def render_todo(body: KindBody) -> str:
    """The counts, then a ``<ul class="tv-todo">`` of the shown items, then what was left out."""
    view = todo_view(body.props, body.limits)
    counts = f'<p class="tv-meta tv-todo-counts">{esc(view.counts)}</p>'
    items = "".join(_item(row) for row in view.rows)
    listed = f'<ul class="tv-todo" aria-label="Plan">{items}</ul>' if items else ""
    more = omission_html(view.more, noun="items") if view.more is not None else ""
    return counts + listed + more + truncation_html(body.truncated)


def _item(row: TodoRow) -> str:
    mark = (
        f'<span class="tv-todo-mark" role="img" aria-label="{esc(row.mark.label)}">'
        f"{esc(row.mark.glyph)}</span>"
    )
    text = esc(row.text)
    if row.status == "cancelled":
        text = f"<s>{text}</s>"
    suffix = (
        f' <span class="tv-todo-state">({esc(row.mark.suffix)})</span>' if row.mark.suffix else ""
    )
    return (
        f'<li class="tv-todo-item" data-status="{esc(row.status)}">{mark} '
        f'<span class="tv-todo-text">{text}</span>{suffix}</li>'
    )
