"""Golden renders per surface and case at a fixed width, colour pinned (the Rich style).

Regenerate after a deliberate change: ``TOOLVIEW_REGEN_GOLDEN=1 pytest tests/render/test_golden.py``
and review the diff of tests/render/golden/.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from render_samples import CASES

from toolview.contract.thread import Thread
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("TOOLVIEW_REGEN_GOLDEN") == "1"

SURFACES: dict[str, tuple[str, Callable[[Thread], str]]] = {
    "text": ("txt", text_surface.render_thread),
    "terminal": ("txt", lambda t: terminal_surface.render_thread(t, width=80, color=False)),
    "terminal-color": ("ansi", lambda t: terminal_surface.render_thread(t, width=80, color=True)),
    "markdown": ("md", markdown_surface.render_thread),
    "html": ("html", lambda t: _page_without_sheet(html_surface.render_page(t, title="golden"))),
}


def _page_without_sheet(page: str) -> str:
    """The standalone page with its stylesheet and the policy's hash of it named, not spelled.

    Why: the goldens pin the page's markup; the sheet is one constant (its
    hash checked by the CSP tests), and spelling it in every golden would make
    each colour change rewrite them all.
    """
    sheet, policy = html_surface.PAGE_CSS, html_surface.PAGE_CSP
    assert page.count(sheet) == 1 and page.count(policy) == 1
    return page.replace(sheet, "/* PAGE_CSS */").replace(policy, "PAGE_CSP")


@pytest.mark.parametrize("surface", sorted(SURFACES))
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(surface: str, case: str) -> None:
    suffix, render = SURFACES[surface]
    rendered = render(CASES[case]())
    path = GOLDEN / surface / f"{case}.{suffix}"
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rendered, encoding="utf-8", newline="")
    assert path.exists(), f"missing golden {path}: run with TOOLVIEW_REGEN_GOLDEN=1"
    assert rendered == path.read_bytes().decode("utf-8")


def test_every_golden_has_a_case() -> None:
    names = {path.stem for path in GOLDEN.glob("*/*")}
    assert names <= set(CASES), names - set(CASES)
