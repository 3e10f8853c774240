"""The ``todo`` kind decided once for every surface: marks, words, counts, bounded items.

An agent's plan is a checklist. Each status has a glyph (``☐ ◐ ☑ ☒``), an
ASCII form (``[ ] [~] [x] [-]``) for the plain-text surface, and words, so no
status is told by colour alone: in progress shows the item's ``active_form``
and says "(in progress)", a cancelled item says "(cancelled)" (and is struck
through where the surface can strike). The counts line ("3/7 done · 1 in
progress") comes first; at most ``Limits.max_rows`` items are shown, the rest
counted. Every item's text is cleaned here (redacted, controls shown, one
line, bounded) before any surface escapes it for itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import TodoItem, TodoProps, TodoStatus
from toolview.render.clean import clean_field
from toolview.render.limits import Limits, Omission

__all__ = ["TODO_MARKS", "TodoMark", "TodoRow", "TodoView", "todo_view"]

_ITEM_CHARS: Final = 500


@dataclass(frozen=True)
class TodoMark:
    """How one status reads: its glyph, its ASCII form, and its words."""

    glyph: str
    ascii: str
    label: str
    """The status in words (``Completed``): a screen reader's text for the glyph."""
    suffix: str | None
    """Said after the item where the glyph alone is not enough: ``in progress``, ``cancelled``."""


TODO_MARKS: Final[dict[TodoStatus, TodoMark]] = {
    "pending": TodoMark("☐", "[ ]", "Pending", None),
    "in_progress": TodoMark("◐", "[~]", "In progress", "in progress"),
    "completed": TodoMark("☑", "[x]", "Completed", None),
    "cancelled": TodoMark("☒", "[-]", "Cancelled", "cancelled"),
}


@dataclass(frozen=True)
class TodoRow:
    """One shown item: its status, its mark, and its text cleaned (one line, bounded)."""

    status: TodoStatus
    mark: TodoMark
    text: str


@dataclass(frozen=True)
class TodoView:
    """The checklist as every surface draws it: counts, rows, and what was left out."""

    counts: str
    rows: tuple[TodoRow, ...]
    more: Omission | None


def todo_view(props: TodoProps, limits: Limits) -> TodoView:
    """The counts of every item, and the first ``limits.max_rows`` items as rows."""
    items = props.items
    shown = items[: max(0, limits.max_rows)]
    rows = tuple(_row(item) for item in shown)
    left = len(items) - len(shown)
    return TodoView(_counts(items), rows, Omission(left, "items") if left > 0 else None)


def _row(item: TodoItem) -> TodoRow:
    """In progress: the item's ``active_form`` ("Writing tests") when it has one."""
    wording = item.content
    if item.status == "in_progress" and isinstance(item.active_form, str) and item.active_form:
        wording = item.active_form
    text = clean_field(wording, _ITEM_CHARS, "space") or "(no text)"
    return TodoRow(item.status, TODO_MARKS[item.status], text)


def _counts(items: list[TodoItem]) -> str:
    """``3/7 done · 1 in progress · 1 cancelled`` (``no items`` for an empty plan)."""
    if not items:
        return "no items"
    by_status = {status: 0 for status in TODO_MARKS}
    for item in items:
        by_status[item.status] += 1
    parts = [f"{by_status['completed']:,}/{len(items):,} done"]
    if by_status["in_progress"]:
        parts.append(f"{by_status['in_progress']:,} in progress")
    if by_status["cancelled"]:
        parts.append(f"{by_status['cancelled']:,} cancelled")
    return " · ".join(parts)
