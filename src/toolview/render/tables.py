"""A table cut to what a surface shows, once, before any surface lays it out.

Every surface shows the same rows and columns of a ``table`` (an envelope's
list of records too): the first ``max_rows`` rows and ``max_columns``
columns, each cell cleaned and cut, and what was left out counted in its own
unit — "… 12 more columns", "… 3 more rows". Cutting happens here, before any
cell is formatted, so a table of a million rows costs what is shown.

A surface that knows its width decides *how* the shown table is laid out: as
a grid when it fits, as records (one ``column: value`` block per row) when
it would not — ``record_fields`` gives a row's pairs for that view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import TableProps
from toolview.render.jsonview import cell_text
from toolview.render.limits import Limits, Omission, OmissionUnit

__all__ = ["NAME_CHARS", "ShownTable", "column_list", "record_fields", "shown_table"]

# A column's name is a label: past this it is cut (and says so) on every surface.
NAME_CHARS: Final = 40


@dataclass(frozen=True)
class ShownTable:
    """The shown names and cells (cleaned, cut) and what was left out of each axis."""

    columns: list[str]
    rows: list[list[str]]
    more_rows: Omission | None = None
    more_columns: Omission | None = None


def shown_table(
    props: TableProps, limits: Limits, *, name_chars: int = NAME_CHARS, cell_chars: int = 0
) -> ShownTable:
    """``props`` cut to ``limits``; cells cut to ``cell_chars`` (``limits.max_cell_chars`` if 0)."""
    width = cell_chars or limits.max_cell_chars
    columns = props.columns[: limits.max_columns]
    rows = props.rows[: limits.max_rows]
    return ShownTable(
        columns=[cell_text(name, name_chars) for name in columns],
        rows=[[cell_text(cell, width) for cell in row[: len(columns)]] for row in rows],
        more_rows=_more(len(props.rows) - len(rows), "rows"),
        more_columns=_more(len(props.columns) - len(columns), "columns"),
    )


def record_fields(table: ShownTable, row: list[str]) -> list[tuple[str, str]]:
    """One row as ``(column, value)`` pairs, in column order, for the record view."""
    return list(zip(table.columns, row, strict=True))


def column_list(table: ShownTable) -> str:
    """``columns: id, email, name`` — a table without rows, too wide for a grid."""
    return "columns: " + ", ".join(table.columns)


def _more(count: int, unit: OmissionUnit) -> Omission | None:
    return Omission(count, unit) if count > 0 else None
