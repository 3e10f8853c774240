"""Stats over many sessions: per day and week, by agent, project and model — read, never re-derived.

Why here: ``toolview stats`` (and a stats page) say how sessions went over
time. Every number is summed from each session's ``SessionCounts`` (calls,
failed, tokens, and the dollars ``contract.cost`` priced turn by turn): the
same figures ``sessions``, ``show`` and the index say one session at a time,
never counted again by a rule of this module's own. A session whose model has
no price is not $0: a bucket says how many of its sessions had none
(``unpriced``), beside the dollars of the rest.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from toolview.contract.cost import money_text
from toolview.contract.counts import SessionCounts
from toolview.contract.model_usage import merge_models
from toolview.contract.tool_tally import ToolCount, merge_tools

__all__ = ["Bucket", "Stats", "StatsSession", "median_ms", "tabulate", "tool_failure_rate"]


@dataclass(frozen=True)
class StatsSession:
    """What stats read of one session: when it started, who ran it, where, and its counts."""

    start: str | None
    agent: str
    project: str
    counts: SessionCounts


@dataclass
class Bucket:
    """Sessions summed: counts of the sessions' own calls and their sub-agents' together."""

    sessions: int = 0
    calls: int = 0
    failed: int = 0
    tokens: int = 0
    usd: Decimal = Decimal(0)
    unpriced: int = 0  # sessions (or models' uses) with no price: their dollars are not in ``usd``

    def add(self, counts: SessionCounts) -> None:
        """One session's counts."""
        self.add_sums(_sums(counts))

    def add_sums(self, sums: tuple[int, int, int, Decimal, int]) -> None:
        """One session's ``_sums`` (read once a session, added to each of its buckets)."""
        self.sessions += 1
        self.calls += sums[0]
        self.failed += sums[1]
        self.tokens += sums[2]
        self.usd += sums[3]
        self.unpriced += sums[4]

    @property
    def failure_rate(self) -> float | None:
        """Failed calls over calls (``None`` without calls)."""
        return self.failed / self.calls if self.calls else None

    def cost_text(self) -> str:
        """``$1.20``, ``$1.20 + 2 with no price``, ``no price``: never $0 for what had none."""
        if not self.unpriced:
            return money_text(self.usd)
        if not self.usd:
            return money_text(None)
        return f"{money_text(self.usd)} + {self.unpriced} with no price"


@dataclass
class Stats:
    """The buckets, each keyed by its label, in order (days and weeks oldest first)."""

    by_day: dict[str, Bucket] = field(default_factory=dict)
    by_week: dict[str, Bucket] = field(default_factory=dict)
    by_agent: dict[str, Bucket] = field(default_factory=dict)
    by_project: dict[str, Bucket] = field(default_factory=dict)
    by_model: dict[str, Bucket] = field(default_factory=dict)
    # every call by its tool (the ledgers' ``tools``): calls, failed, durations; most calls first
    by_tool: tuple[ToolCount, ...] = ()

    def tables(self) -> dict[str, dict[str, Bucket]]:
        """Every table by its heading, in the order they are shown."""
        return {
            "day": self.by_day,
            "week": self.by_week,
            "agent": self.by_agent,
            "project": self.by_project,
            "model": self.by_model,
        }


def tabulate(sessions: Iterable[StatsSession]) -> Stats:
    """Every session summed into its day, week, agent, project and each model it used.

    By model, a session counts once per model its turns (or its sub-agents')
    used, with that model's tokens and dollars only: its calls are not the
    model's, so a model's row counts none.
    """
    stats = Stats()
    tools: list[tuple[ToolCount, ...]] = []
    for facts in sessions:
        tools.append(facts.counts.tools)
        sums = _sums(facts.counts)
        day = _day(facts.start)
        if day is not None:
            year, week, _ = day.isocalendar()
            _into(stats.by_day, day.isoformat(), sums)
            _into(stats.by_week, f"{year}-W{week:02d}", sums)
        _into(stats.by_agent, facts.agent, sums)
        _into(stats.by_project, facts.project, sums)
        for usage in merge_models(facts.counts.models, facts.counts.sub_models):
            tokens = usage.input_tokens + usage.output_tokens
            model = SessionCounts(tokens=tokens, models=(usage,))
            stats.by_model.setdefault(usage.model, Bucket()).add(model)
    stats.by_tool = tuple(sorted(merge_tools(*tools), key=lambda row: -row.calls))
    for table in (stats.by_day, stats.by_week):
        ordered = dict(sorted(table.items()))
        table.clear()
        table.update(ordered)
    return stats


def _into(table: dict[str, Bucket], key: str, sums: tuple[int, int, int, Decimal, int]) -> None:
    table.setdefault(key, Bucket()).add_sums(sums)


def _sums(counts: SessionCounts) -> tuple[int, int, int, Decimal, int]:
    """What a session adds to a bucket: its calls, failed and tokens with its sub-agents',
    its priced dollars, and 1 when some of its turns had no price."""
    own, sub = counts.cost_usd, counts.sub_cost_usd
    unpriced = (own is None and bool(counts.models)) or (sub is None and bool(counts.sub_models))
    return (
        counts.calls + counts.sub_calls,
        counts.failed + counts.sub_failed,
        counts.tokens + counts.sub_tokens,
        (own or Decimal(0)) + (sub or Decimal(0)),
        int(unpriced),
    )


def _day(start: str | None) -> date | None:
    """The UTC day of an ISO time (``None``: no time, or not one)."""
    if start is None:
        return None
    try:
        return datetime.fromisoformat(start.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def median_ms(row: ToolCount) -> float | None:
    """The median of the tool's call durations (``None``: no call with both times)."""
    return statistics.median(row.took_ms) if row.took_ms else None


def tool_failure_rate(row: ToolCount) -> float | None:
    """The tool's failed calls over its calls (``None`` without calls)."""
    return row.failed / row.calls if row.calls else None
