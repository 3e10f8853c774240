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
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from toolview.render.tables import ShownTable, column_list, record_fields
from toolview.render.terminal.styled import Hanging

__all__ = ["FittedTable", "Records", "grid_min_width", "grid_table"]

_INDENT: Final = 2


@dataclass(frozen=True)
class FittedTable:
    """``shown`` as a grid if no word has to break at the console's width, else as records.

    A table without rows has no records: its column names, listed, are all it has.
    """

    shown: ShownTable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if grid_min_width(self.shown) <= options.max_width:
            yield grid_table(self.shown)
        elif self.shown.rows:
            yield Records(self.shown)
        else:
            yield Hanging(Text(column_list(self.shown), style="bold"))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, grid_table(self.shown))


def grid_min_width(shown: ShownTable) -> int:
    """The width ``grid_table`` needs so no word breaks, in one pass over the shown cells.

    Rich's own measure of the grid, computed directly (it would lay out every
    column twice): each column as wide as its longest word, plus its padding
    and the rule between columns — three cells between each pair.
    """
    columns = [
        shown.columns[i : i + 1] + [row[i] for row in shown.rows] for i in range(len(shown.columns))
    ]
    return sum(max(map(_min_text, cells)) for cells in columns) + 3 * (len(columns) - 1)


def _min_text(text: str) -> int:
    """Rich's ``Text`` minimum: its longest word (its widest line if it has no word)."""
    words = text.split()
    if words:
        return max(map(cell_len, words))
    return max(map(cell_len, text.splitlines()), default=0)


def grid_table(shown: ShownTable) -> Table:
    """The shown rows under bold column names, cells folded only where a word is too long."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, highlight=False)
    for name in shown.columns:
        table.add_column(Text(name, style="bold"), overflow="fold")
    for row in shown.rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


@dataclass(frozen=True)
class Records:
    """``row 1``, then its ``column: value`` lines indented under it, values aligned.

    Each value wraps under itself (its column of names stays clear); a name
    too long to leave room for its value gets a line of its own. Drawn as
    plain wrapped ``Text``: a Rich grid per row would cost twice as much.
    """

    shown: ShownTable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width - _INDENT
        pad = min(max(cell_len(name) for name in self.shown.columns) + 2, width // 2)
        for number, row in enumerate(self.shown.rows, 1):
            yield Text(f"row {number}", style="dim")
            for name, value in record_fields(self.shown, row):
                yield from _field(console, name, value, width, pad)


def _field(console: Console, name: str, value: str, width: int, pad: int) -> list[Text]:
    """One ``name: value`` pair as lines: the value wrapped at ``width - pad``, under itself."""
    label = Text().append(f"{name}:", style="bold")  # a span: the value is not bold
    lines: list[Text] = []
    if label.cell_len >= pad:  # the name alone is wider than the names' column
        lines += [_indent(line, _INDENT) for line in label.wrap(console, width)]
        label = Text()
    wrapped = list(Text(value).wrap(console, max(1, width - pad))) or [Text()]
    for index, line in enumerate(wrapped):
        head = label.copy() if index == 0 else Text()
        head.pad_right(pad - head.cell_len)
        lines.append(_indent(head + line, _INDENT))
    return lines


def _indent(line: Text, by: int) -> Text:
    line.pad_left(by)
    return line
