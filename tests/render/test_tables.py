"""Tables that fit: counted on both axes, a grid where it fits, records where it would not."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from rich.measure import Measurement

from corpora.wide_table import WIDE_COLUMNS, WIDE_TABLE, many_rows
from toolview.contract import Descriptor, RunEnded, RunStarted, TableProps, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_thread_html
from toolview.render.html.kinds import data as html_data
from toolview.render.limits import Limits
from toolview.render.markdown.kinds import data as markdown_data
from toolview.render.tables import shown_table
from toolview.render.terminal.kinds import data as terminal_data
from toolview.render.terminal.kinds.records import grid_min_width, grid_table
from toolview.render.terminal.layout import make_console, to_string
from toolview.render.text.kinds import data as text_data
from toolview.render.text.kinds.data import TABLE_WIDTH

SGR = re.compile(r"\x1b\[[0-9;]*m")
TAGS = re.compile(r"<[^>]+>")
SMALL = Limits(max_rows=2, max_columns=3)
SURFACES: dict[str, Callable[..., str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t, **kw: terminal_surface.render_thread(t, width=80, **kw),
    "markdown": markdown_surface.render_thread,
    "html": lambda t, **kw: TAGS.sub(" ", render_thread_html(t, **kw)),
}


def table_thread(props: dict[str, object]) -> Thread:
    result = ToolResult("c1", "sql", "rows", True, False, Descriptor("table", props))
    return Thread.from_observations(
        [RunStarted("r"), ToolCall("c1", "sql", {}), result, RunEnded("r", "completed")]
    )


def test_the_shown_table_counts_rows_and_columns_in_their_own_units() -> None:
    shown = shown_table(TableProps(**many_rows(60)), Limits(max_rows=50, max_columns=10))
    assert len(shown.columns) == 10 and len(shown.rows) == 50
    assert all(len(row) == 10 for row in shown.rows)
    assert str(shown.more_columns) == "… 12 more columns"
    assert str(shown.more_rows) == "… 10 more rows"
    one = shown_table(TableProps(["a", "b"], [[1, 2], [3, 4]]), Limits(max_rows=1, max_columns=1))
    assert (str(one.more_rows), str(one.more_columns)) == ("… 1 more row", "… 1 more column")
    assert shown_table(TableProps(["a"], [[1]]), Limits()).more_rows is None


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_says_how_many_rows_and_columns_were_left_out(surface: str) -> None:
    out = SURFACES[surface](table_thread(many_rows(7)), limits=SMALL).replace("\\", "")
    assert "… 19 more columns" in out and "… 5 more rows" in out
    assert "more item" not in out
    assert "created_at" not in out, "a column past the limit is not shown"


def test_the_terminal_shows_a_grid_when_every_word_fits() -> None:
    out = terminal_surface.render_thread(table_thread(WIDE_TABLE), width=600)
    header = next(line for line in out.splitlines() if "email" in line)
    assert "created_at" in header and "row 1" not in out
    assert "https://partners.example.com/campaign/autumn-2024" in out


@pytest.mark.parametrize("width", [80, 50])
@pytest.mark.parametrize("color", [False, True])
def test_the_terminal_shows_records_when_a_grid_would_break_words(width: int, color: bool) -> None:
    out = SGR.sub(
        "", terminal_surface.render_thread(table_thread(WIDE_TABLE), width=width, color=color)
    )
    lines = out.splitlines()
    assert all(len(line) <= width for line in lines), lines
    assert [line.strip() for line in lines if line.strip().startswith("row ")] == [
        "row 1",
        "row 2",
        "row 3",
    ]
    fields = [line.strip() for line in lines if re.match(r"^ {4}\S", line)]
    assert len(fields) == 3 * 20
    assert fields[0].split() == ["id:", "1"] and fields[1].split() == [
        "email:",
        "alice.martin@example.com",
    ]
    url = "https://partners.example.com/campaign/autumn-2024"
    assert url in "".join(line.strip() for line in lines), "a long value folds, never cut"
    assert "… 2 more columns" in out


def test_a_record_value_wraps_under_itself_never_at_column_zero() -> None:
    prose = " ".join(["word"] * 40)
    out = terminal_surface.render_thread(
        table_thread({"columns": WIDE_COLUMNS, "rows": [[prose] * 22]}), width=60
    )
    body = out.splitlines()[1:]
    assert all(line.startswith("  ") for line in body)
    value_lines = [line for line in body if line.startswith(" " * 6) and "word" in line]
    assert value_lines and all(line.lstrip().startswith("word") for line in value_lines)
    assert out.count("word") == 40 * 20


def test_a_table_without_rows_keeps_its_column_names_however_wide() -> None:
    props = {"columns": WIDE_COLUMNS, "rows": []}
    for out in (
        terminal_surface.render_thread(table_thread(props), width=80),
        text_surface.render_thread(table_thread(props)),
    ):
        assert "email" in out and "(no rows)" in out and "row 1" not in out


def test_plain_text_is_a_grid_up_to_its_width_and_records_past_it() -> None:
    def grid_line(width: int) -> Thread:
        # "yyy…y │ xxx…x": a cell of 40 (plain text's longest) and one that makes ``width``
        return table_thread({"columns": ["a", "b"], "rows": [["y" * (width - 43), "x" * 40]]})

    fits = text_surface.render_thread(grid_line(TABLE_WIDTH))
    assert "─┼─" in fits and "row 1" not in fits
    assert max(len(line) for line in fits.splitlines()) == TABLE_WIDTH + 2  # the call's indent
    past = text_surface.render_thread(grid_line(TABLE_WIDTH + 1))
    assert "─┼─" not in past and "row 1" in past
    assert "    a: " + "y" * (TABLE_WIDTH - 42) in past.splitlines()


def test_markdown_keeps_a_wide_table_a_table() -> None:
    out = markdown_surface.render_thread(table_thread(WIDE_TABLE))
    assert "| id | email | name |" in out and "row 1" not in out


def test_a_huge_table_costs_what_is_shown() -> None:
    """A million rows of 200 columns: every surface cuts before it formats a cell.

    (Validating the props is the contract's cost, paid once; this is the render's.)
    """
    props = TableProps([f"c{n}" for n in range(200)], [list(range(200))] * 1_000_000)
    renderers: dict[str, Callable[[TableProps, Limits], object]] = {
        "text": text_data.table_lines,
        "terminal": lambda p, lim: to_string(
            [terminal_data.table_renderable(p, lim)], width=80, color=False
        ),
        "markdown": markdown_data.table_md,
        "html": html_data.table_html,
    }
    for surface, render in renderers.items():
        started = time.thread_time()
        out = str(render(props, Limits()))
        assert "999,950 more rows" in out and "180 more columns" in out, surface
        assert time.thread_time() - started < 2, surface  # generous: the machine is shared


@pytest.mark.parametrize(
    "props",
    [
        WIDE_TABLE,
        many_rows(5),
        {"columns": ["a"], "rows": [[""]]},
        {"columns": ["名前", "b", "c"], "rows": [["中文字符 測試", "", "   "], [None, 1.5, "x y"]]},
        {"columns": ["a", "b"], "rows": []},
    ],
)
def test_the_fit_check_is_richs_own_measure_of_the_grid(props: dict[str, object]) -> None:
    """The terminal decides grid or records by ``grid_min_width``: Rich's measure, computed."""
    shown = shown_table(TableProps(**props), Limits())  # type: ignore[arg-type]
    console, _ = make_console(10_000, color=False)
    rich = Measurement.get(console, console.options, grid_table(shown)).minimum
    assert grid_min_width(shown) == rich


def test_in_colour_a_record_names_its_column_in_bold_and_leaves_the_value_plain() -> None:
    out = terminal_surface.render_thread(table_thread(WIDE_TABLE), width=80, color=True)
    assert "    \x1b[1memail:\x1b[0m         alice.martin@example.com\n" in out
