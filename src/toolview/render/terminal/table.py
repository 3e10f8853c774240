"""Tables (and envelope data that is a list of records) as a Rich ``Table``."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from toolview.contract import TableProps
from toolview.render.jsonview import cell_text
from toolview.render.limits import Limits, Omission
from toolview.render.terminal.text import omission_text

__all__ = ["table_renderable"]


def table_renderable(props: TableProps, limits: Limits) -> RenderableType:
    """Rows and columns bounded before the table is built; what was left out is said."""
    columns = props.columns[: limits.max_columns]
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, highlight=False)
    for name in columns:
        table.add_column(Text(cell_text(name, 40), style="bold"), overflow="fold")
    for row in props.rows[: limits.max_rows]:
        table.add_row(
            *(Text(cell_text(cell, limits.max_cell_chars)) for cell in row[: len(columns)])
        )
    notes: list[Text] = []
    if len(props.columns) > len(columns):
        notes.append(omission_text(Omission(len(props.columns) - len(columns), "items")))
        notes[-1].append(" (columns)")
    if len(props.rows) > limits.max_rows:
        notes.append(omission_text(Omission(len(props.rows) - limits.max_rows, "items")))
        notes[-1].append(" (rows)")
    if not props.rows:
        notes.append(Text("(no rows)", style="dim"))
    return Group(table, *notes) if columns else Group(Text("(no columns)", style="dim"), *notes)
