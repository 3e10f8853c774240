"""Stats over sessions (``render.stats``): each number a sum of the sessions' own counts.

The buckets read ``SessionCounts`` (the one home of calls, failures, tokens
and cost) and never count again: a day's calls are its sessions' calls, its
dollars their dollars; a session whose model has no price is said, not $0.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import Usage
from toolview.contract.counts import SessionCounts
from toolview.contract.model_usage import models_of
from toolview.render.stats import StatsSession, tabulate

MODELS = ["claude-sonnet-4-5", "gpt-5", "no-such-model-anywhere"]


@st.composite
def facts(draw: st.DrawFn) -> StatsSession:
    turns = draw(st.lists(st.tuples(st.sampled_from(MODELS), st.integers(0, 9_000)), max_size=3))
    models = models_of(Usage(model=m, input_tokens=n, output_tokens=n // 3) for m, n in turns)
    calls = draw(st.integers(0, 50))
    counts = SessionCounts(
        calls=calls,
        failed=draw(st.integers(0, calls)),
        tokens=sum(u.input_tokens + u.output_tokens for u in models),
        models=models,
        sub_calls=draw(st.integers(0, 5)),
    )
    day = draw(st.integers(1, 28))
    return StatsSession(
        f"2026-02-{day:02d}T10:00:00Z", draw(st.sampled_from(["claude-code", "codex"])), "p", counts
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(facts(), max_size=20))
def test_every_bucket_is_the_sum_of_its_sessions_counts(sessions: list[StatsSession]) -> None:
    stats = tabulate(sessions)
    for table in (stats.by_day, stats.by_week, stats.by_agent, stats.by_project):
        assert sum(b.sessions for b in table.values()) == len(sessions)
        assert sum(b.calls for b in table.values()) == sum(
            s.counts.calls + s.counts.sub_calls for s in sessions
        )
        assert sum(b.failed for b in table.values()) == sum(s.counts.failed for s in sessions)
        priced = [s.counts.cost_usd for s in sessions if s.counts.cost_usd is not None]
        assert sum(b.usd for b in table.values()) == sum(priced, Decimal(0))
        unpriced = sum(1 for s in sessions if s.counts.models and s.counts.cost_usd is None)
        assert sum(b.unpriced for b in table.values()) == unpriced
    assert list(stats.by_day) == sorted(stats.by_day)
    for model, bucket in stats.by_model.items():
        used = [s for s in sessions if any(u.model == model for u in s.counts.models)]
        assert bucket.sessions == len(used)


def test_no_price_is_said_never_zero_dollars() -> None:
    unpriced = models_of([Usage(model="no-such-model-anywhere", input_tokens=5, output_tokens=1)])
    priced = models_of([Usage(model="gpt-5", input_tokens=1_000_000, output_tokens=0)])
    alone = tabulate([StatsSession("2026-02-02", "codex", "p", SessionCounts(models=unpriced))])
    assert alone.by_agent["codex"].cost_text() == "no price"
    both = tabulate(
        StatsSession("2026-02-02", "codex", "p", SessionCounts(models=m))
        for m in (unpriced, priced)
    )
    assert both.by_week["2026-W06"].cost_text() == "$1.25 + 1 with no price"
    assert both.by_model["gpt-5"].cost_text() == "$1.25"
