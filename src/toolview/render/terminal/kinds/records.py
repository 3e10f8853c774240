"""A table that fits the console: a grid where it can, one record per row where not.

A grid narrower than its words would have to break values mid-word (a column
of timestamps, paths or e-mail addresses folded one letter at a time), which
reads worse than no grid at all. So the choice is made at print time, against
the console's real width: if every column can hold its longest word, the grid;
otherwise one ``column: value`` block per row (psql's expanded display), its
values wrapping under themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from toolview.render.tables import ShownTable, column_list, record_fields
from toolview.render.terminal.styled import Hanging

__all__ = ["FittedTable", "grid_table", "records"]

# Wide enough that measuring never clamps a column (cells are already bounded).
_UNBOUNDED: Final = 1 << 20


@dataclass(frozen=True)
class FittedTable:
    """``shown`` as a grid if no word has to break at the console's width, else as records.

    A table without rows has no records: its column names, listed, are all it has.
    """

    shown: ShownTable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        grid = grid_table(self.shown)
        needed = Measurement.get(console, options.update_width(_UNBOUNDED), grid).minimum
        if needed <= options.max_width:
            yield grid
        elif self.shown.rows:
            yield records(self.shown)
        else:
            yield Hanging(Text(column_list(self.shown), style="bold"))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, grid_table(self.shown))


def grid_table(shown: ShownTable) -> Table:
    """The shown rows under bold column names, cells folded only where a word is too long."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, highlight=False)
    for name in shown.columns:
        table.add_column(Text(name, style="bold"), overflow="fold")
    for row in shown.rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def records(shown: ShownTable) -> RenderableType:
    """``row 1``, then its ``column: value`` lines indented under it, values aligned."""
    blocks: list[RenderableType] = []
    for number, row in enumerate(shown.rows, 1):
        fields = Table.grid(padding=(0, 1))
        fields.add_column(overflow="fold")
        fields.add_column(overflow="fold")
        for name, value in record_fields(shown, row):
            fields.add_row(Text(f"{name}:", style="bold"), Text(value))
        blocks += [Text(f"row {number}", style="dim"), Padding(fields, (0, 0, 0, 2))]
    return Group(*blocks)
