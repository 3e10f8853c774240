"""axe-core (pinned, tests/node) on the live page: no serious or critical violation.

The example thread, a hostile thread (every HTML and terminal payload of
tests/corpora) and a 1,000-call thread, each in light and dark (the system's
scheme, then the page's own toggle) and at desktop and 390 px width, with the
viewer's controls in use (a search with highlights, a filter, a call opened).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer
from viewer_page import DESKTOP, PHONE, open_viewer
from viewer_threads import EXAMPLE, hostile, many_calls, write_thread

pytestmark = pytest.mark.browser

Serve = Callable[..., ToolviewServer]


def _every_look(page: Page, url: str) -> dict[str, list[object]]:
    """The violations in each scheme and width (empty lists when all is well)."""
    found: dict[str, list[object]] = {}
    for size_name, size in (("desktop", DESKTOP), ("390px", PHONE)):
        for scheme in ("light", "dark"):
            open_viewer(page, url, scheme=scheme, size=size)
            page.locator("#tv-search-input").fill("a")
            expect(page.locator("#tv-search-count")).not_to_have_text("")
            found[f"{scheme} {size_name}"] = list(axe_violations(page))
        page.get_by_label("Theme").select_option("dark")  # the toggle over a light system
        page.emulate_media(color_scheme="light")
        found[f"toggled dark {size_name}"] = list(axe_violations(page))
        page.get_by_label("Theme").select_option("system")
    return found


@pytest.mark.parametrize("name", ["thread", "hostile", "big"])
def test_no_serious_or_critical_violation(served: Serve, tmp_path: Path, name: str) -> None:
    if name == "thread":
        path = EXAMPLE
    else:
        observations = hostile() if name == "hostile" else many_calls(1000)
        path = write_thread(tmp_path / f"{name}.jsonl", observations)
    server = served("--db", str(tmp_path / "log.db"), "--load", str(path))
    results: dict[str, list[object]] = {}

    def scenario(page: Page) -> None:
        results.update(_every_look(page, f"{server.url}/threads/{name}"))

    in_browser(scenario)
    assert results == {look: [] for look in results}
    assert len(results) == 6
