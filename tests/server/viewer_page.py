"""Opening the live page with its viewer ready, in a given scheme and width."""

from __future__ import annotations

from typing import Final

from playwright.sync_api import Page, expect

__all__ = ["DESKTOP", "PHONE", "open_viewer", "page_overflows"]

DESKTOP: Final = {"width": 1280, "height": 900}
PHONE: Final = {"width": 390, "height": 844}


def open_viewer(
    page: Page, url: str, *, scheme: str = "light", size: dict[str, int] = DESKTOP
) -> None:
    """``url`` in ``page`` at ``size`` with ``prefers-color-scheme: scheme``, viewer.js running."""
    page.set_viewport_size(size)  # type: ignore[arg-type]
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(url)
    expect(page.locator("#tv-live")).to_have_attribute("data-viewer", "ready")


def page_overflows(page: Page) -> bool:
    """Whether the page scrolls sideways (at 390 px nothing may)."""
    return bool(
        page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    )
