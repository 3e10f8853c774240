"""A producer's gap marker is not output: a surface's hidden-line count leaves it out."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.hosts.command.output_window import OutputWindow, WindowLimits
from toolview.render.gap_marker import is_gap_marker, output_lines
from toolview.render.limits import Omission, head, tail


def window_text(lines: int, limits: WindowLimits) -> str:
    window = OutputWindow(limits)
    window.feed("".join(f"{n}\n" for n in range(1, lines + 1)).encode())
    window.close()
    return window.view().text


def test_the_run_window_s_marker_is_the_marker_surfaces_know() -> None:
    text = window_text(100_000, WindowLimits())
    markers = [line for line in text.splitlines() if is_gap_marker(line)]
    assert markers == ["… 99,600 lines omitted …"]


@pytest.mark.parametrize(
    "line",
    ["… 5 lines omitted …", "… 1,234 bytes omitted …", "… 99,600 lines omitted …"],
)
def test_markers(line: str) -> None:
    assert is_gap_marker(line)


@pytest.mark.parametrize(
    "line",
    [
        "… 5 items omitted …",
        "… five lines omitted …",
        "x … 5 lines omitted …",
        "… 5 lines omitted",
        "… ５ lines omitted …",  # a full-width digit: str.isdigit would say yes
        "… " + "9" * 60 + " lines omitted …",
    ],
)
def test_not_markers(line: str) -> None:
    assert not is_gap_marker(line)


def test_a_tail_cut_hiding_the_marker_counts_output_lines_only() -> None:
    text = window_text(1000, WindowLimits(head_lines=200, tail_lines=200))  # 401 lines
    shown = tail(text, 100, 64_000)
    assert shown.text.startswith("901\n") and shown.before == Omission(300, "lines")
    assert head(text, 100, 64_000).after == Omission(300, "lines")  # the same from the top
    kept = tail(text, 250, 64_000)  # the marker stays in view: every hidden line is output
    assert kept.text.startswith("152\n") and kept.before == Omission(151, "lines")


def test_a_marker_like_line_inside_a_long_line_is_not_counted() -> None:
    text = "x" * 100 + "… 5 lines omitted …\n" + "a\n" * 3
    assert output_lines(text, 0, len(text), 4) == 4
    text = "a\n… 5 lines omitted …\nb\n"
    assert output_lines(text, 0, len(text), 3) == 2


@pytest.mark.skipif(shutil.which("seq") is None, reason="needs the seq command")
@pytest.mark.parametrize("surface", ["text", "terminal", "markdown", "html"])
def test_seq_1000_with_a_100_line_view_says_900_more_lines(tmp_path: Path, surface: str) -> None:
    """The real ``seq``, recorded by ``toolview run``: lines 1–900 are hidden, not 901."""
    record = tmp_path / "seq.jsonl"
    toolview = [sys.executable, "-m", "toolview"]
    ran = subprocess.run(
        [*toolview, "run", "--record", str(record), "--", "seq", "1", "1000"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)},
    )
    assert "… 900 more lines (600 not in the result)" in ran.stdout
    shown = subprocess.run(
        [*toolview, "show", "--surface", surface, str(record)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "900 more lines (600 not in the result)" in shown and "901 more" not in shown
