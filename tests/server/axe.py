"""axe-core in a Playwright page: the serious and critical accessibility violations.

axe-core is pinned in tests/node (npm, 4.14.1). The pages keep a strict CSP
(``script-src 'self'``), which refuses the inline ``<script>`` that
``page.add_script_tag`` adds; the source is then evaluated instead (through
the DevTools protocol, which the page's CSP does not govern). Only the page's
own markup is judged: the check itself adds nothing to the DOM.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Final, TypedDict

from playwright.sync_api import Error, Page

__all__ = ["AXE", "Violation", "axe_violations", "inject_axe"]

AXE: Final = (
    Path(__file__).resolve().parents[1] / "node" / "node_modules" / "axe-core" / "axe.min.js"
)
_BLOCKING: Final = ("serious", "critical")
_RUN: Final = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary),
  }));
}"""


class Violation(TypedDict):
    """One rule axe found broken, with (at most five of) the elements that break it."""

    id: str
    impact: str
    help: str
    nodes: list[str]


def inject_axe(page: Page) -> str:
    """Loads axe-core into ``page``; says how (``"tag"`` or ``"evaluate"``)."""
    if page.evaluate("typeof window.axe !== 'undefined'"):
        return "present"
    with contextlib.suppress(Error):  # refused by the page's CSP: evaluated below
        page.add_script_tag(path=AXE)
    if page.evaluate("typeof window.axe !== 'undefined'"):
        return "tag"
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    return "evaluate"


def axe_violations(page: Page) -> list[Violation]:
    """The serious and critical violations axe-core finds in ``page`` as it is now."""
    inject_axe(page)
    found: list[Violation] = page.evaluate(_RUN)
    return [v for v in found if v["impact"] in _BLOCKING]
