"""``/stats``: the threads this server holds, per day and week, by agent, project, model and tool.

Why the index's cards: each thread's ``SessionCounts`` (calls, failures,
tokens and the dollars of ``contract.cost``) is already kept current by the
index (``server.page.index.directory``), so the page sums those
(``render.stats``, what ``toolview stats`` prints) and counts nothing itself.
Each table comes with a chart of its main figure (``server.page.stats.chart``)
and every number as a table. The sum runs in a worker: 10,000 threads are
tens of milliseconds that the event loop does not wait on.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.contract.cost import money_text
from toolview.contract.session_facts import agent_of
from toolview.contract.tool_tally import ToolCount
from toolview.render.stats import (
    Bucket,
    Stats,
    StatsSession,
    median_ms,
    tabulate,
    tool_failure_rate,
)
from toolview.server.offload import in_worker
from toolview.server.page.index.card import Card
from toolview.server.page.shell import document
from toolview.server.page.stats.chart import bar_chart, number_table
from toolview.server.state import server_state

__all__ = ["routes", "stats_html"]

_HEAD: Final = ("Sessions", "Calls", "Failed", "Failure rate", "Tokens", "Cost")
_CHARTED: Final = 31  # bars a chart draws: the latest days or weeks, the largest others


def stats_html(stats: Stats) -> str:
    """Every table under its heading, each after its chart."""
    parts = ['<main class="tv-page"><h1>Stats</h1><p><a href="/">All threads</a></p>']
    for name, rows in stats.tables().items():
        parts.append(_section(name, rows))
    parts.append(_tools(stats.by_tool))
    parts.append("</main>")
    return "".join(parts)


def _section(name: str, rows: dict[str, Bucket]) -> str:
    by_cost = name in ("day", "week", "model")
    head = (name.capitalize(), *_HEAD)
    if not rows:
        return f"<section><h2>By {name}</h2><p>No threads yet.</p></section>"
    charted = list(rows.items())
    charted = charted[-_CHARTED:] if name in ("day", "week") else _largest(charted, by_cost)
    bars = [
        (key, float(b.usd), b.cost_text()) if by_cost else (key, float(b.calls), f"{b.calls:,}")
        for key, b in charted
    ]
    figure = "cost" if by_cost else "calls"
    chart = bar_chart(f"tv-chart-{name}", f"{figure.capitalize()} by {name}", bars)
    table = number_table(f"By {name}: every figure", head, [_cells(k, b) for k, b in rows.items()])
    return f"<section><h2>By {name}</h2>{chart}{table}</section>"


def _tools(rows: tuple[ToolCount, ...]) -> str:
    """Calls by tool (the ledgers' counts, most calls first): a chart, and every figure."""
    if not rows:
        return "<section><h2>By tool</h2><p>No calls yet.</p></section>"
    bars = [(row.tool, float(row.calls), f"{row.calls:,}") for row in rows[:_CHARTED]]
    chart = bar_chart("tv-chart-tool", "Calls by tool", bars)
    head = ("Tool", "Calls", "Failed", "Failure rate", "Median duration")
    table = number_table("By tool: every figure", head, [_tool_cells(row) for row in rows])
    return f"<section><h2>By tool</h2>{chart}{table}</section>"


def _tool_cells(row: ToolCount) -> list[str]:
    rate, median = tool_failure_rate(row), median_ms(row)
    return [
        row.tool,
        f"{row.calls:,}",
        f"{row.failed:,}",
        "-" if rate is None else f"{rate:.1%}",
        "-" if median is None else f"{median / 1000:.2f} s",
    ]


def _largest(rows: list[tuple[str, Bucket]], by_cost: bool) -> list[tuple[str, Bucket]]:
    ranked = sorted(rows, key=lambda row: row[1].usd if by_cost else row[1].calls, reverse=True)
    return ranked[:_CHARTED]


def _cells(key: str, bucket: Bucket) -> list[str]:
    rate = bucket.failure_rate
    return [
        key,
        f"{bucket.sessions:,}",
        f"{bucket.calls:,}",
        f"{bucket.failed:,}",
        "-" if rate is None else f"{rate:.1%}",
        f"{bucket.tokens:,}",
        bucket.cost_text() if bucket.sessions else money_text(None),
    ]


def _facts(cards: list[Card]) -> Stats:
    """The cards' counts summed (in a worker)."""
    return tabulate(
        StatsSession(card.facts.start, agent_of(card.id), card.facts.project or "-", card.counts())
        for card in cards
    )


async def _stats(request: Request) -> Response:
    state = server_state(request)
    cards = await state.listing.directory.cards()
    stats = await in_worker(state.workers, partial(_facts, cards))
    return HTMLResponse(document("stats", stats_html(stats)))


routes = [Route("/stats", _stats, methods=["GET"])]
