"""The ``json``, ``table`` and ``envelope`` kinds as plain lines: bounded JSON, padded columns."""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Envelope
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import cell_text, json_lines
from toolview.render.limits import Limits, Omission
from toolview.render.props import JsonProps, TableProps
from toolview.render.text.lines import truncation_lines, window_lines
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = ["data_lines", "envelope", "json_value", "table", "table_lines"]

_FIELD = 500


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return json_lines(props.value, body.limits) + truncation_lines(body.truncated)


def table(body: KindBody) -> list[str]:
    return table_lines(body.props, body.limits) + truncation_lines(body.truncated)


def table_lines(props: TableProps, limits: Limits) -> list[str]:
    """Columns padded to their widest shown cell; rows and columns bounded."""
    columns = props.columns[: limits.max_columns]
    rows = props.rows[: limits.max_rows]
    header = [cell_text(name, 40) for name in columns]
    cells = [[cell_text(cell, 40) for cell in row[: len(columns)]] for row in rows]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(columns))]
    lines = [
        " │ ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *cells]
    ]
    lines.insert(1, "─┼─".join("─" * w for w in widths))
    if len(props.columns) > len(columns):
        lines.append(f"{Omission(len(props.columns) - len(columns), 'items')} (columns)")
    if len(props.rows) > len(rows):
        lines.append(f"{Omission(len(props.rows) - len(rows), 'items')} (rows)")
    if not rows:
        lines.append("(no rows)")
    return lines


def envelope(body: KindBody) -> list[str]:
    props: Envelope = body.props
    lines = [f"{clean_field(props.tool, _FIELD)}: {clean_field(props.status, 80)}"]
    if isinstance(props.summary, str):
        lines.append(clean_field(props.summary, body.limits.max_args_chars * 4, "space"))
    if isinstance(props.error_code, str):
        lines.append(f"error code: {clean_field(props.error_code, 200)}")
    lines += data_lines(props.data, body.limits)
    return lines + truncation_lines(body.truncated)


def data_lines(data: Any, limits: Limits) -> list[str]:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_lines(records_table(data), limits)
    if isinstance(data, str):
        return window_lines(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return []
    return json_lines(data, limits)
