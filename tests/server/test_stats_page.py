"""``/stats`` (``server.page.stats``): the index's counts and cost, summed; axe-clean, both schemes.

The real Claude Code session (with its sub-agent) posted to the server: the
page's week row says what ``/api/threads`` says of the thread (its calls and
its sub-agents', failures, tokens, dollars), never a count of its own; each
chart is an image with a title, its numbers a table. In real Chromium, with
axe-core: no serious or critical violation, light and dark, desktop and 390 px.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient
from test_counts_real import CLAUDE, served
from toolview_servers import ToolviewServer
from viewer_page import DESKTOP, PHONE
from viewer_threads import write_thread

from toolview.contract import Observation, Thread
from toolview.contract.cost import money_text
from toolview.hosts import claude_code


def cells(page: str, caption: str) -> list[list[str]]:
    """The rows of the table under ``caption``, as text."""
    table = page.split(f"<caption>{caption}</caption>", 1)[1].split("</table>", 1)[0]
    return [
        re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1])
    ]


def test_the_stats_are_the_threads_counts_and_cost(client: TestClient) -> None:
    served(client, claude_code.load_observations, CLAUDE)
    (card,) = client.get("/api/threads").json()["threads"]
    page = client.get("/stats").text
    (week,) = cells(page, "By week: every figure")
    dollars = Decimal(str(card["costUsd"])) + Decimal(str(card["subAgentCostUsd"]))
    calls, failed = card["calls"] + card["subAgentCalls"], card["failed"] + card["subAgentFailed"]
    assert week[1:] == [
        "1",
        f"{calls:,}",
        f"{failed:,}",
        f"{failed / calls:.1%}",
        f"{card['tokens'] + card['subAgentTokens']:,}",
        money_text(dollars.quantize(Decimal("0.01"))),
    ]
    (model,) = cells(page, "By model: every figure")
    assert [model[0]] == card["models"]
    assert page.count('role="img"') == 6 and page.count("<title id=") == 6


def test_the_tool_rows_are_the_ledgers_of_the_same_calls(client: TestClient) -> None:
    """The page's rows by tool (the index's ledgers, fed peeked records) are what a
    ``Thread`` of the same observations counts by tool: calls, failed, rate, median."""
    served(client, claude_code.load_observations, CLAUDE)
    page = client.get("/stats").text
    observations = [o for o in claude_code.load_observations(CLAUDE) if isinstance(o, Observation)]
    tools = Thread.from_observations(observations).counts().tools
    expected = [
        [
            row.tool,
            f"{row.calls:,}",
            f"{row.failed:,}",
            f"{row.failed / row.calls:.1%}",
            f"{statistics.median(row.took_ms) / 1000:.2f} s" if row.took_ms else "-",
        ]
        for row in sorted(tools, key=lambda row: -row.calls)
    ]
    assert cells(page, "By tool: every figure") == expected
    assert len(expected) >= 5 and 'id="tv-chart-tool"' in page


def test_no_threads_is_said(client: TestClient) -> None:
    page = client.get("/stats").text
    assert page.count("No threads yet.") == 5


@pytest.mark.browser
def test_stats_page_is_axe_clean_in_both_schemes(
    served: Callable[..., ToolviewServer], tmp_path: Path
) -> None:
    observations = [o for o in claude_code.load_observations(CLAUDE) if isinstance(o, Observation)]
    thread = write_thread(tmp_path / "claude.jsonl", observations)
    server = served("--db", str(tmp_path / "log.db"), "--load", str(thread))
    found: dict[str, list[object]] = {}

    def scenario(page: Page) -> None:
        for size_name, size in (("desktop", DESKTOP), ("390px", PHONE)):
            for scheme in ("light", "dark"):
                page.set_viewport_size(size)  # type: ignore[arg-type]
                page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
                page.goto(f"{server.url}/stats")
                expect(page.locator("svg.tv-chart").first).to_be_visible()
                found[f"{scheme} {size_name}"] = list(axe_violations(page))

    in_browser(scenario)
    assert found == {look: [] for look in found} and len(found) == 4
