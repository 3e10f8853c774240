"""The standalone page's look in real Chromium: AA contrast light and dark, and a phone's width.

Every sample thread the render tests know (every kind, status, diff, JSON,
SGR colours, receipts, the summary), plus Markdown messages and an edited
diff, on one page under its CSP. The colours measured are those Chromium
applied (``page_look.CONTRAST``), in the light scheme, the dark one
(``prefers-color-scheme``), and with the page's ``data-theme`` overriding the
system's both ways. At 390 px wide nothing widens the page: tables, code,
long lines and diffs scroll inside their cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from render_samples import CASES

from corpora.wide_table import WIDE_TABLE
from page_look import CONTRAST, OVERFLOW
from toolview.contract import Descriptor, Message, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render.html import render_thread_html
from toolview.render.html.document import page_head, page_tail

pytestmark = pytest.mark.browser

EDIT = (
    "--- a/app.py\n+++ b/app.py\n@@ -10,4 +10,4 @@ def main():\n ctx\n"
    "-    port = compute(1, 2)\n+    port = compute(1, 3)\n ctx\n"
    f"-{'long_name ' * 40}\n+{'long_name ' * 39}end\n"
)
MARKDOWN = (
    "# A heading\n\nSome **bold**, `code`, [a link](https://example.com/a) and a "
    f"{'very' * 60}long word.\n\n```python\ndef f(x):\n    return 'x'  # why\n```\n"
)


def _extra() -> Thread:
    return Thread.from_observations(
        [
            Message("user", MARKDOWN),
            Message("thinking", "## Plan\n1. read\n2. edit"),
            ToolCall("e1", "edit", {"path": "app.py"}),
            ToolResult(
                "e1", "edit", "diff", complete=True, is_error=False,
                descriptor=Descriptor("diff", {"path": "app.py", "diff": EDIT}),
            ),
            ToolCall("q1", "query", {"sql": "select * from users"}),
            ToolResult(
                "q1", "query", "rows", complete=True, is_error=False,
                descriptor=Descriptor("table", WIDE_TABLE),
            ),
        ]
    )  # fmt: skip


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    fragments = [render_thread_html(CASES[name]()) for name in sorted(CASES)]
    fragments.append(render_thread_html(_extra()))
    html = page_head("look") + "\n".join(fragments) + "\n" + page_tail()
    path = tmp_path_factory.mktemp("look") / "page.html"
    path.write_text(html, encoding="utf-8")
    return path


def _measure(
    browser: Any, path: Path, scheme: str, script: str, width: int = 1000, theme: str | None = None
) -> Any:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        if theme:  # what the live page's toggle does
            page.evaluate(f"() => document.documentElement.dataset.theme = '{theme}'")
        for details in page.locator("details").all():  # opened: what they hold is measured too
            details.evaluate("el => el.open = true")
        return page.evaluate(script)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("scheme", "theme", "background"),
    [
        ("light", None, "rgb(243, 244, 246)"),
        ("dark", None, "rgb(13, 17, 23)"),
        ("light", "dark", "rgb(13, 17, 23)"),
        ("dark", "light", "rgb(243, 244, 246)"),
    ],
)
def test_every_text_meets_aa_contrast(
    browser: Any, page_file: Path, scheme: str, theme: str | None, background: str
) -> None:
    measured = _measure(browser, page_file, scheme, CONTRAST, theme=theme)
    assert measured["scheme"] == background  # the scheme asked for is the one drawn
    assert measured["checked"] > 300
    assert measured["failures"] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_nothing_widens_a_phone_page(browser: Any, page_file: Path, scheme: str) -> None:
    measured = _measure(browser, page_file, scheme, OVERFLOW, width=390)
    assert measured["sticking"] == []
    assert measured["scrollWidth"] <= 390, measured
    assert measured["wide"] >= 3  # the wide table, the long diff lines, long code scroll inside
