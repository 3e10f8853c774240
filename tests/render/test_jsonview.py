"""The bounded JSON view: depth, items, node budget, long strings, redaction."""

from __future__ import annotations

import json

from toolview.render import Limits, args_preview, cell_text, json_lines


def test_small_values_are_plain_pretty_json() -> None:
    value = {"a": [1, 2.5, None, True], "b": "x"}
    assert "\n".join(json_lines(value, Limits())) == json.dumps(value, indent=2)
    assert json_lines([], Limits()) == ["[]"] and json_lines("s", Limits()) == ['"s"']


def test_items_beyond_the_limit_are_counted() -> None:
    lines = json_lines(list(range(100)), Limits(max_json_items=3))
    assert lines[1:4] == ["  0,", "  1,", "  2,"]
    assert lines[4] == "  … 97 more items"
    lines = json_lines({str(i): i for i in range(10)}, Limits(max_json_items=2))
    assert "  … 8 more items" in lines


def test_depth_beyond_the_limit_is_summarised() -> None:
    deep: object = 1
    for _ in range(20):
        deep = [deep]
    lines = json_lines(deep, Limits(max_json_depth=3))
    assert len(lines) == 7 and "[… 1 more item]" in lines[3]


def test_the_node_budget_bounds_the_output() -> None:
    wide = [[list(range(50)) for _ in range(50)] for _ in range(50)]
    lines = json_lines(wide, Limits(max_lines=100))
    assert len(lines) < 400


def test_long_strings_are_cut_with_the_count() -> None:
    (line,) = json_lines("x" * 1000, Limits(max_cell_chars=10))
    assert line == '"xxxxxxxxxx" … 990 more characters'


def test_secret_keys_and_values_are_redacted_and_controls_escaped() -> None:
    text = "\n".join(json_lines({"password": "hunter2", "note": "a\x1b[31mb\u202e"}, Limits()))
    assert "hunter2" not in text and "[redacted" in text
    assert "\x1b" not in text and "\u202e" not in text


def test_a_tool_cannot_forge_a_marker() -> None:
    lines = json_lines(["\ue000abc:… 5 more items"], Limits())
    assert lines[1].startswith('  "')


def test_args_preview_is_one_bounded_line() -> None:
    assert args_preview({}, Limits()) is None
    preview = args_preview({"command": "ls", "list": list(range(1000))}, Limits(max_args_chars=60))
    assert preview is not None and "\n" not in preview and "more characters" in preview
    assert preview.startswith('{ "command": "ls"')


def test_cells_are_compact_and_bounded() -> None:
    assert cell_text("plain", 10) == "plain"
    assert cell_text({"k": [1, 2]}, 50) == '{ "k": [ 1, 2 ] }'
    assert cell_text("y" * 30, 10) == "yyyyyyyyyy … 20 more characters"
    assert cell_text(None, 10) == "null"
