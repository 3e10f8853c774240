"""The ``json``, ``table`` and ``envelope`` kinds in Markdown: fenced JSON, GFM tables."""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Envelope, JsonProps, TableProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits
from toolview.render.markdown.escape import (
    code_block,
    code_span,
    inline,
    omission_md,
    truncation_md,
    window_block,
)
from toolview.render.tables import shown_table
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
    """A GFM table; cells escaped (``|`` included), rows and columns bounded.

    Wide or not, a table stays a table here: a Markdown viewer scrolls it.
    """
    shown = shown_table(props, limits)
    left_out = [line for o in (shown.more_columns, shown.more_rows) for line in omission_md(o)]
    if not shown.columns:
        return ["_(no columns)_", *left_out]
    rows = [_row(shown.columns), _row(["---"] * len(shown.columns), False)]
    rows += [_row(row) for row in shown.rows]
    return ["\n".join(rows), *left_out, *([] if shown.rows else ["_(no rows)_"])]


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
