"""The ``todo`` kind as Rich ``Text``: a glyph per status, struck through when cancelled."""

from __future__ import annotations

from typing import Final

from rich.console import Group, RenderableType
from rich.text import Text

from toolview.contract import TodoStatus
from toolview.render.terminal.styled import omission_text, truncation_text
from toolview.render.todo import todo_view
from toolview.render.view import KindBody

__all__ = ["todo"]

# The glyph's shape says the status; colour only helps (never alone).
_MARK_STYLE: Final[dict[TodoStatus, str]] = {
    "pending": "",
    "in_progress": "bold yellow",
    "completed": "green",
    "cancelled": "dim",
}
_TEXT_STYLE: Final[dict[TodoStatus, str]] = {
    "pending": "",
    "in_progress": "bold",
    "completed": "",
    "cancelled": "dim strike",
}


def todo(body: KindBody) -> RenderableType:
    """The counts (dim), then ``☑ item`` lines; in progress and cancelled say so in words."""
    view = todo_view(body.props, body.limits)
    text = Text()
    text.append(view.counts, style="dim")
    for row in view.rows:
        text.append("\n")
        text.append(row.mark.glyph, style=_MARK_STYLE[row.status])
        text.append(" ")
        text.append(row.text, style=_TEXT_STYLE[row.status])
        if row.mark.suffix:
            text.append(f" ({row.mark.suffix})", style="dim italic")
    more = [omission_text(view.more)] if view.more is not None else []
    return Group(text, *more, *truncation_text(body.truncated))
