"""Command output as a terminal leaves it: SGR kept as data, the last frame, the rest inert."""

from __future__ import annotations

import time

import pytest

from toolview.safety.ansi import parse_growing, parse_output
from toolview.safety.output import clean_output, live_output
from toolview.safety.sgr import Run, Style, apply_sgr, nearest_256, wire_params

E = "\x1b"


def styles_of(text: str) -> list[tuple[str, Style]]:
    styled = parse_output(text)
    return [(styled.text[run.start : run.end], run.style) for run in styled.runs]


def test_every_sgr_family_is_kept_as_style_data() -> None:
    assert styles_of(f"{E}[31mr{E}[91mR{E}[42mg{E}[0m") == [
        ("r", Style(fg=1)),
        ("R", Style(fg=9)),
        ("g", Style(fg=9, bg=2)),
    ]
    assert styles_of(f"{E}[38;5;208mo{E}[48:5:21mb{E}[m") == [
        ("o", Style(fg=208)),
        ("b", Style(fg=208, bg=21)),
    ]
    assert styles_of(f"{E}[38;2;1;2;3mt{E}[0m") == [("t", Style(fg=(1, 2, 3)))]
    flags = f"{E}[1mb{E}[2md{E}[22;3mi{E}[23;4mu{E}[24;7mv{E}[27mp"
    assert [style for _, style in styles_of(flags)] == [
        Style(bold=True),
        Style(bold=True, dim=True),
        Style(italic=True),
        Style(underline=True),
        Style(inverse=True),
    ]


def test_malformed_or_unknown_sgr_changes_nothing_it_cannot_read() -> None:
    assert apply_sgr("38;5;300", Style()) == Style()  # out of the palette
    assert apply_sgr("38;2;1;2", Style()) == Style()  # too few parts
    assert apply_sgr("5;8;9", Style(fg=1)) == Style(fg=1)  # blink, conceal, strike: ignored
    assert apply_sgr("1;99999999999;31", Style()) == Style(bold=True, fg=1)


def test_everything_but_sgr_stays_neutralized() -> None:
    text = f"{E}]0;title{E}\\{E}]8;;https://evil{E}\\link{E}]8;;{E}\\{E}[2J{E}[5A\x9b1m{E}Pq{E}\\ok"
    styled = parse_output(text)
    assert styled.text == "linkok"
    assert styled.runs == (Run(4, 6, Style(bold=True)),)  # 8-bit CSI SGR is an SGR too
    assert parse_output(f"{E}]8;;x unterminated\n").text == "␛]8;;x unterminated\n"
    assert parse_output("a\u202eb\x00\x85").text == "a<U+202E>b␀<U+0085>"


def test_carriage_return_and_backspace_leave_the_last_frame() -> None:
    assert parse_output("10%\r50%\r100%\n").text == "100%\n"
    assert parse_output("progress 100%\rdone").text == "doneress 100%"  # as a terminal shows
    assert parse_output("old line\r\x1b[Knew").text == "new"  # erase to the line's end
    assert parse_output("abc\bX").text == "abX"
    assert parse_output("\b\bab\b\b\bc").text == "cb"
    assert parse_output("a\r\nb\r\n").text == "a\nb\n"
    red = parse_output(f"{E}[31m10%{E}[0m\r{E}[32m100%{E}[0m")
    assert red.text == "100%" and red.runs == (Run(0, 4, Style(fg=2)),)


def test_a_secret_split_by_colour_codes_is_redacted_and_the_runs_move() -> None:
    token = "ghp_" + "Ab1" * 12
    styled = clean_output(f"{E}[31m{token[:9]}{E}[0m{token[9:]} {E}[32mok{E}[0m")
    assert styled.text == "[redacted: github-token] ok"
    assert styled.runs == (Run(25, 27, Style(fg=2)),)


def test_a_growing_text_is_read_up_to_an_unfinished_sequence() -> None:
    assert parse_growing(f"ok {E}[3") == (parse_output("ok "), 3)
    assert parse_growing(f"ok {E}]0;tit")[1] == 3
    assert parse_growing("ok\r")[1] == 2  # a CR LF may be arriving
    assert live_output(f"a {E}[31mred{E}[0m b ", complete=False) == "a \x1a0;38;5;1mred\x1a0m b "


def test_24_bit_colours_map_to_the_nearest_of_256() -> None:
    assert nearest_256((255, 0, 0)) == 196
    assert nearest_256((0, 0, 0)) == 16
    assert nearest_256((128, 128, 128)) == 244
    assert wire_params(Style(fg=(255, 0, 0), bold=True, bg=4)) == "0;1;38;5;196;48;5;4"


ADVERSARIAL = {
    "csi": f"{E}[",
    "osc": f"{E}]",
    "c1-osc": "\x9d",
    "sgr": f"{E}[1;38;5;20m",
    "cr": "\r",
    "cr-overwrite": "x\ry",
    "backspace": "ab\b",
    "erase": f"x{E}[K",
    "esc-intermediates": f"{E} ",
    "osc-long-body": f"{E}]" + "a" * 4000,
}


def _cost(text: str) -> float:
    """The best of three runs, in this thread's CPU time (other processes' load is not ours)."""
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        parse_output(text)
        parse_growing(text)
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize("fragment", ADVERSARIAL.values(), ids=list(ADVERSARIAL))
def test_four_times_the_input_costs_about_four_times(fragment: str) -> None:
    """Linear: 4x the text costs ~4x (16x if quadratic); 10x leaves room for a busy machine."""
    small = fragment * (40_000 // len(fragment) + 1)
    ratio = _cost(small * 4) / max(_cost(small), 2e-3)  # below 2 ms: timer noise
    assert ratio < 10, f"{ratio:.1f}x for 4x the input: superlinear"


def test_one_long_overwritten_line_is_linear() -> None:
    """A megabyte line rewritten from its start 100,000 times costs what writing it does."""
    text = "a" * 1_000_000 + "\rb" * 100_000
    start = time.thread_time()
    assert parse_output(text).text.startswith("ba")
    assert time.thread_time() - start < 10.0
