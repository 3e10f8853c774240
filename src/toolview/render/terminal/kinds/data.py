"""The ``json``, ``table`` and ``envelope`` kinds: bounded JSON, and tables (an envelope's
list of records too) as a Rich ``Table``."""

from __future__ import annotations

from typing import Any

import msgspec
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from toolview.contract import Envelope
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import cell_text, json_lines
from toolview.render.limits import Limits, Omission
from toolview.render.props import JsonProps, TableProps
from toolview.render.terminal.styled import lines_text, omission_text, truncation_text, window_text
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = ["data_renderable", "envelope", "json_value", "table", "table_renderable"]

_FIELD = 500


def json_value(body: KindBody) -> RenderableType:
    props: JsonProps = body.props
    return Group(lines_text(json_lines(props.value, body.limits)), *truncation_text(body.truncated))


def table(body: KindBody) -> RenderableType:
    return Group(table_renderable(body.props, body.limits), *truncation_text(body.truncated))


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


def envelope(body: KindBody) -> RenderableType:
    props: Envelope = body.props
    parts: list[RenderableType] = []
    if isinstance(props.summary, str):
        parts.append(Text(clean_field(props.summary, body.limits.max_args_chars * 4, "space")))
    line = Text(f"{clean_field(props.tool, _FIELD)}: {clean_field(props.status, 80)}", style="dim")
    if isinstance(props.error_code, str):
        line.append(f" · error code {clean_field(props.error_code, 200)}", style="bold")
    parts.append(line)
    data = data_renderable(props.data, body.limits)
    return Group(*parts, *([data] if data else []), *truncation_text(body.truncated))


def data_renderable(data: Any, limits: Limits) -> RenderableType | None:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_renderable(records_table(data), limits)
    if isinstance(data, str):
        return window_text(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return None
    return lines_text(json_lines(data, limits))
