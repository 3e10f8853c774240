"""The ``json``, ``table`` and ``envelope`` kinds in Markdown: fenced JSON, GFM tables."""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Envelope
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import cell_text, json_lines
from toolview.render.limits import Limits, Omission
from toolview.render.markdown.escape import (
    code_block,
    code_span,
    inline,
    omission_md,
    truncation_md,
    window_block,
)
from toolview.render.props import JsonProps, TableProps
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = ["data_md", "envelope", "json_value", "table", "table_md"]

_FIELD = 500


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return [
        code_block("\n".join(json_lines(props.value, body.limits)), "json"),
        *truncation_md(body.truncated),
    ]


def table(body: KindBody) -> list[str]:
    return [*table_md(body.props, body.limits), *truncation_md(body.truncated)]


def table_md(props: TableProps, limits: Limits) -> list[str]:
    """A GFM table; cells escaped (``|`` included), rows and columns bounded."""
    columns = props.columns[: limits.max_columns]
    if not columns:
        return ["_(no columns)_"]
    rows = [_row([cell_text(name, 40) for name in columns]), _row(["---"] * len(columns), False)]
    for row in props.rows[: limits.max_rows]:
        rows.append(_row([cell_text(cell, limits.max_cell_chars) for cell in row[: len(columns)]]))
    out = ["\n".join(rows)]
    if len(props.columns) > len(columns):
        out += omission_md(Omission(len(props.columns) - len(columns), "items"))
    if len(props.rows) > limits.max_rows:
        out += omission_md(Omission(len(props.rows) - limits.max_rows, "items"))
    if not props.rows:
        out.append("_(no rows)_")
    return out


def _row(cells: list[str], escape: bool = True) -> str:
    return "| " + " | ".join(inline(cell) if escape else cell for cell in cells) + " |"


def envelope(body: KindBody) -> list[str]:
    props: Envelope = body.props
    out: list[str] = []
    if isinstance(props.summary, str):
        out.append(inline(clean_field(props.summary, body.limits.max_args_chars * 4, "space")))
    line = f"{inline(clean_field(props.tool, _FIELD))}: {code_span(clean_field(props.status, 80))}"
    if isinstance(props.error_code, str):
        line += f" · error code {code_span(clean_field(props.error_code, 200))}"
    out.append(line)
    return out + data_md(props.data, body.limits) + truncation_md(body.truncated)


def data_md(data: Any, limits: Limits) -> list[str]:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_md(records_table(data), limits)
    if isinstance(data, str):
        return window_block(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return []
    return [code_block("\n".join(json_lines(data, limits)), "json")]
