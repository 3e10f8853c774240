"""A JSON value → one of the built-in views: envelope, table or JSON.

One rule for every producer: the MCP host shows ``structuredContent`` this way
and ``describe`` shows a Python value this way. A value is an ``envelope`` when
``parse_envelope`` accepts it, a ``table`` when it is a list of flat objects
(the shape a person reads best as rows), and otherwise a bounded ``json``
view; the choice never looks at a tool's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from toolview.contract.blocks import StructuredView
from toolview.contract.descriptor import Truncation
from toolview.contract.envelope import parse_envelope
from toolview.contract.kinds import JsonProps, TableProps

__all__ = ["MAX_TABLE_ROWS", "structured_view"]

MAX_TABLE_ROWS: Final = 1000
_SCALARS: Final = frozenset({str, int, float, bool, type(None)})
_ENVELOPE_FIELDS = ("schemaVersion", "tool", "status", "data", "summary", "errorCode")


def structured_view(value: object) -> tuple[StructuredView, dict[str, Any], Truncation | None]:
    """The view for ``value``, the props of that built-in kind, and what was left out.

    A table keeps at most ``MAX_TABLE_ROWS`` rows (the text still has them all):
    no surface shows more, and the truncation says how many there were.
    """
    envelope = parse_envelope(value) if isinstance(value, Mapping) else None
    if envelope is not None:
        fields = msgspec.to_builtins(envelope)
        return "envelope", {key: fields[key] for key in _ENVELOPE_FIELDS if key in fields}, None
    table = _table(value)
    if table is not None:
        assert isinstance(value, list)
        shown = len(table.rows)
        cut = (
            Truncation(shown=shown, total=len(value), unit="items") if shown < len(value) else None
        )
        return "table", msgspec.to_builtins(table), cut
    return "json", msgspec.to_builtins(JsonProps(value=value)), None


def _table(value: object) -> TableProps | None:
    """Columns and rows for a list whose first rows are flat objects, else ``None``."""
    if not isinstance(value, list) or not value:
        return None
    head = value[:MAX_TABLE_ROWS]
    columns: dict[str, None] = {}
    for row in head:
        if not isinstance(row, dict) or not _flat(row):
            return None
        columns.update(dict.fromkeys(row))
    names = list(columns)
    return TableProps(columns=names, rows=[[row.get(name) for name in names] for row in head])


def _flat(row: dict[Any, Any]) -> bool:
    return all(type(key) is str for key in row) and all(
        type(cell) in _SCALARS for cell in row.values()
    )
