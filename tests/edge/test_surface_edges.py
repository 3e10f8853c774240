"""Defined outcomes on every surface: bounded, visible, writable."""

from __future__ import annotations

from edge import inputs
from fuzz.surface_checks import one_call, render_all
from toolview.render import html

DONE = (True, False, True)


def _deep(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_10_mb_line_renders_bounded_everywhere() -> None:
    thread = one_call("Tedge", "zzz", {}, "y" * inputs.TEN_MB, None, DONE)
    for name, output in render_all(thread, 80).items():
        assert "Tedge" in output and len(output) < 300_000, (name, len(output))
    assert len(html.render_page(thread)) < 400_000


def test_nul_is_made_visible_everywhere() -> None:
    thread = one_call(
        "Tedge",
        "shell",
        {"command": "a\x00", "exitCode": 0, "stdout": "b\x00", "stderr": ""},
        "c\x00",
        None,
        DONE,
    )
    for name, output in render_all(thread, 80).items():
        assert "\x00" not in output and "␀" in output, name


def test_numbers_past_64_bits_are_worded_exactly() -> None:
    cut = {"shown": 1, "total": inputs.BIG + 1, "unit": "lines"}
    thread = one_call("Tedge", "json", {"value": {"n": inputs.BIG}}, "x", cut, DONE)
    for name, output in render_all(thread, 120).items():
        assert str(inputs.BIG) in output, name
        assert f"{inputs.BIG:,}" in output, name  # "… 1,180,591,… more lines"


def test_json_props_nested_100000_deep_render_bounded() -> None:
    thread = one_call("Tedge", "json", {"value": _deep(inputs.DEPTH)}, "x", None, DONE)
    for name, output in render_all(thread, 80).items():
        assert "Tedge" in output and len(output) < 50_000, name


def test_a_lone_surrogate_is_replaced_so_the_output_can_be_written() -> None:
    thread = one_call("Tedge", "zzz", {}, "half \ud800 pair", None, DONE)
    for output in render_all(thread, 80).values():
        output.encode("utf-8")
