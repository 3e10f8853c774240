"""Shared wording: one honest line when a surface cut next to the tool's own cut."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from render_samples import long_file_thread, long_shell_thread

from toolview.contract.thread import Thread
from toolview.render import Omission
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_thread_html
from toolview.render.words import omission_line


@pytest.mark.parametrize(
    ("shown", "tool", "expected"),
    [
        (None, None, None),
        (Omission(900, "lines"), None, "… 900 more lines"),
        (None, Omission(1, "bytes"), "… 1 more byte"),
        (
            Omission(900, "lines"),
            Omission(9000, "lines"),
            "… 9,900 more lines (9,000 not in the result)",
        ),
        (Omission(1, "items"), Omission(1, "items"), "… 2 more items (1 not in the result)"),
        (
            Omission(12, "chars"),
            Omission(9000, "lines"),
            "… 12 more characters, and 9,000 more lines not in the result",
        ),
        (
            Omission(1, "lines"),
            Omission(1, "bytes"),
            "… 1 more line, and 1 more byte not in the result",
        ),
    ],
)
def test_omission_line(shown: Omission | None, tool: Omission | None, expected: str | None) -> None:
    assert omission_line(shown, tool) == expected


SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=80),
    "markdown": markdown_surface.render_thread,
    "html": render_thread_html,
}


@pytest.mark.parametrize("surface", sorted(SURFACES))
@pytest.mark.parametrize(
    ("thread", "line"),
    [
        (long_shell_thread, "… 9,900 more lines (9,000 not in the result)"),
        (long_file_thread, "… 4,900 more lines (4,800 not in the result)"),
    ],
)
def test_two_cuts_read_as_one_line_on_every_surface(
    surface: str, thread: Callable[[], Thread], line: str
) -> None:
    out = SURFACES[surface](thread())
    assert out.count(line) == 1, out[:400]
    assert len(re.findall(r"… [\d,]+ more", out)) == 1, "one omission, not two stacked"


def test_the_html_disclosure_gives_both_counts() -> None:
    html = render_thread_html(long_shell_thread())
    assert "900 lines above left out to keep the page light" in html
    assert "the tool sent 1,000 of 10,000 lines" in html
