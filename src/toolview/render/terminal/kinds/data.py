"""The ``json``, ``table`` and ``envelope`` kinds: bounded JSON, and tables (an envelope's
list of records too) as a Rich ``Table`` — or as records where it would not fit."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.console import Group, RenderableType

from toolview.contract import Envelope, JsonProps, TableProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits
from toolview.render.tables import shown_table
from toolview.render.terminal.fit import FitText
from toolview.render.terminal.jsontext import json_text
from toolview.render.terminal.kinds.records import FittedTable
from toolview.render.terminal.styled import omission_text, truncation_text, window_text
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = ["data_renderable", "envelope", "json_value", "table", "table_renderable"]

_FIELD = 500


def json_value(body: KindBody) -> RenderableType:
    props: JsonProps = body.props
    return Group(json_text(json_lines(props.value, body.limits)), *truncation_text(body.truncated))


def table(body: KindBody) -> RenderableType:
    return Group(table_renderable(body.props, body.limits), *truncation_text(body.truncated))


def table_renderable(props: TableProps, limits: Limits) -> RenderableType:
    """Rows and columns bounded before anything is built; what was left out is said."""
    shown = shown_table(props, limits)
    notes = [omission_text(o) for o in (shown.more_columns, shown.more_rows) if o]
    if not shown.columns:
        return Group(FitText("(no columns)", style="dim"), *notes)
    empty = [] if shown.rows else [FitText("(no rows)", style="dim")]
    return Group(FittedTable(shown), *notes, *empty)


def envelope(body: KindBody) -> RenderableType:
    props: Envelope = body.props
    parts: list[RenderableType] = []
    if isinstance(props.summary, str):
        parts.append(FitText(clean_field(props.summary, body.limits.max_args_chars * 4, "space")))
    status = f"{clean_field(props.tool, _FIELD)}: {clean_field(props.status, 80)}"
    line = FitText(status, style="dim")
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
    return json_text(json_lines(data, limits))
