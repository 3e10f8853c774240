"""The ``json``, ``table`` and ``envelope`` kinds as plain lines: bounded JSON, padded columns
(records when the columns would not fit 80 characters)."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract import Envelope, JsonProps, TableProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits
from toolview.render.tables import ShownTable, column_list, record_fields, shown_table
from toolview.render.text.lines import INDENT, truncation_lines, window_lines
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = ["TABLE_WIDTH", "data_lines", "envelope", "json_value", "table", "table_lines"]

_FIELD = 500
_CELL = 40  # a plain-text cell is cut shorter than elsewhere: it pads a whole column

TABLE_WIDTH: Final = 78
"""The widest grid line plain text writes (80 columns less a call's indent); past it,
records. Plain text has no width of its own; this is the terminal's default."""


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return json_lines(props.value, body.limits) + truncation_lines(body.truncated)


def table(body: KindBody) -> list[str]:
    return table_lines(body.props, body.limits) + truncation_lines(body.truncated)


def table_lines(props: TableProps, limits: Limits) -> list[str]:
    """Columns padded to their widest shown cell; records when that is wider than
    ``TABLE_WIDTH``. Rows and columns bounded, what was left out counted."""
    shown = shown_table(props, limits, cell_chars=_CELL)
    if not shown.columns:
        return ["(no columns)", *_left_out(shown)]
    lines = _grid(shown)
    if max(map(len, lines)) > TABLE_WIDTH:  # no column to pad a record's value
        lines = _records(shown_table(props, limits)) if shown.rows else [column_list(shown)]
    return [*lines, *_left_out(shown), *([] if shown.rows else ["(no rows)"])]


def _grid(shown: ShownTable) -> list[str]:
    """``name │ size`` rows under a ruled header, each column as wide as its widest cell."""
    table = [shown.columns, *shown.rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(shown.columns))]
    lines = [
        " │ ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table
    ]
    lines.insert(1, "─┼─".join("─" * w for w in widths))
    return lines


def _records(shown: ShownTable) -> list[str]:
    """One block per row: ``row 1``, then ``column: value`` lines, values aligned."""
    pad = max(map(len, shown.columns)) + 2
    lines: list[str] = []
    for number, row in enumerate(shown.rows, 1):
        lines.append(f"row {number}")
        lines += [
            f"{INDENT}{f'{name}:'.ljust(pad)}{value}".rstrip()
            for name, value in record_fields(shown, row)
        ]
    return lines


def _left_out(shown: ShownTable) -> list[str]:
    return [str(omission) for omission in (shown.more_columns, shown.more_rows) if omission]


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
