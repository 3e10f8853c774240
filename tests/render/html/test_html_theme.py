"""Every colour of the html sheets is a --tv- property, defined for light and for dark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolview.render.html import FRAGMENT_CSS, PAGE_CSS
from toolview.render.html.palette import SGR_CSS
from toolview.render.html.theme import THEME_CSS, theme_block

PAGE_SHEET = Path(__file__).parents[3] / "src/toolview/server/page/static/page.css"
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|:\s*(?:white|black)\b")


def _rules(css: str) -> str:
    """``css`` without the theme's definitions, the xterm cube and any ``var(…)`` (a
    fallback inside one included)."""
    css = css.replace(THEME_CSS, "").replace(SGR_CSS, "")
    return re.sub(r"var\([^()]*\)", "var()", css)


@pytest.mark.parametrize(
    ("name", "css"),
    [("fragments", FRAGMENT_CSS), ("page", PAGE_CSS), ("page.css", PAGE_SHEET.read_text())],
)
def test_no_sheet_names_a_colour_of_its_own(name: str, css: str) -> None:
    assert COLOUR.findall(_rules(css)) == [], name


def test_every_property_used_is_defined_in_both_schemes() -> None:
    used = set(re.findall(r"var\((--tv-[a-z0-9_-]+)", FRAGMENT_CSS + PAGE_SHEET.read_text()))
    light = set(re.findall(r"(--tv-[a-z0-9_-]+):", theme_block(0)))
    dark = set(re.findall(r"(--tv-[a-z0-9_-]+):", theme_block(1)))
    assert light == dark
    assert used - light == set()
    assert {"--tv-live-bg", "--tv-ansi-2", "--tv-diff-add-word", "--tv-json-key"} <= used
    assert {"--tv-mark-bg", "--tv-mark-fg"} <= light  # the viewer's search matches


def test_the_system_scheme_and_the_page_attribute_both_decide() -> None:
    assert "@media (prefers-color-scheme: dark)" in FRAGMENT_CSS
    assert ':root:not([data-theme="light"])' in FRAGMENT_CSS  # the attribute wins over light
    for theme in ("dark", "light"):
        assert f':root[data-theme="{theme}"]' in FRAGMENT_CSS
    for css in (PAGE_CSS, PAGE_SHEET.read_text()):
        assert "color-scheme: light dark" in css and "color-scheme: light;" in css


def test_a_tools_exact_colours_read_at_aa_on_every_background_of_each_scheme() -> None:
    """Colours 16-255 (and 24-bit ones, drawn as the nearest) as text: a minimum contrast."""
    from toolview.render.html.legible import contrast, cube_and_greys
    from toolview.render.html.theme import THEME, TOOL_COLOURS

    assert len(cube_and_greys()) == 240
    for scheme in (0, 1):
        grounds = [p[scheme] for n, p in THEME.items() if n.endswith("bg") and n != "mark-bg"]
        for index, colour in enumerate(cube_and_greys(), start=16):
            shown = TOOL_COLOURS[index][scheme] if index in TOOL_COLOURS else colour
            worst = min(contrast(shown, ground) for ground in grounds)
            assert worst >= 4.5, (scheme, index, colour, shown, worst)
    # pure red (38;2;255;0;0 -> 196) was 4.0:1 on the light error background
    assert contrast("#ff0000", THEME["stderr-bg"][0]) < 4.5
    assert ".tv-f196{color:var(--tv-tc-196)}" in FRAGMENT_CSS
    assert "--tv-tc-196:" in FRAGMENT_CSS
