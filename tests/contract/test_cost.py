"""A session's cost (``contract.cost``, ``contract.model_usage``): genai-prices' own figure.

Every turn is priced as the library prices that request (``calc_price``, our
input plus the cached tokens it counts in), summed per model, the thread's own
apart from its sub-agents'; a model it cannot price is ``None`` ("no price"),
never $0. Checked on random usage and on the real Claude Code and Codex
sessions in tests/hosts.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from genai_prices import Usage as PriceUsage
from genai_prices import calc_price
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import Observation, Thread, Usage
from toolview.contract.cost import money_text
from toolview.contract.counts import SessionCounts, cost_fields
from toolview.contract.model_usage import ModelUsage, models_of
from toolview.hosts import claude_code, codex

TESTS = Path(__file__).parents[1]
CLAUDE = TESTS / "hosts" / "claude_code" / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
CODEX = next((TESTS / "hosts" / "codex" / "real" / "sessions").rglob("rollout-*-bcb4-*.jsonl"))
PRICED = ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5", "gpt-5", "gpt-5-codex"]
UNPRICED = "no-such-model-anywhere"


def library_usd(usages: list[Usage]) -> Decimal:
    """What genai-prices says the turns cost, asked turn by turn."""
    total = Decimal(0)
    for usage in usages:
        read = usage.cache_read_tokens if isinstance(usage.cache_read_tokens, int) else 0
        write = usage.cache_write_tokens if isinstance(usage.cache_write_tokens, int) else 0
        asked = PriceUsage(
            input_tokens=usage.input_tokens + read + write,
            output_tokens=usage.output_tokens,
            cache_read_tokens=read,
            cache_write_tokens=write,
        )
        total += calc_price(asked, usage.model).total_price
    return total


counts = st.integers(min_value=0, max_value=400_000)
turns = st.lists(
    st.builds(
        lambda model, i, o, r, w: Usage(
            model=model, input_tokens=i, output_tokens=o, cache_read_tokens=r, cache_write_tokens=w
        ),
        st.sampled_from(PRICED),
        counts,
        counts,
        counts,
        counts,
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(turns)
def test_each_model_costs_what_the_library_says_its_turns_cost(usages: list[Usage]) -> None:
    models = models_of(usages)
    assert [m.model for m in models] == list(dict.fromkeys(u.model for u in usages))
    for model in models:
        mine = [u for u in usages if u.model == model.model]
        assert model.usd == library_usd(mine)
        assert model.cache_read_tokens == sum(u.cache_read_tokens for u in mine)  # type: ignore[misc]
    session = SessionCounts(models=models)
    assert session.cost_usd == library_usd(usages)


def test_a_long_turn_is_priced_at_its_own_tier_not_at_the_sessions_sum() -> None:
    turn = Usage(model="claude-sonnet-4-5", input_tokens=150_000, output_tokens=10)
    (model,) = models_of([turn, turn])
    assert model.usd == 2 * library_usd([turn])
    assert model.usd != library_usd(
        [Usage(model="claude-sonnet-4-5", input_tokens=300_000, output_tokens=20)]
    )


def test_a_model_the_library_cannot_price_says_no_price_never_zero() -> None:
    usages = [
        Usage(model="claude-sonnet-4-5", input_tokens=10, output_tokens=5),
        Usage(model=UNPRICED, input_tokens=10, output_tokens=5),
    ]
    session = SessionCounts(models=models_of(usages))
    assert session.models[1].usd is None and session.cost_usd is None
    fields = cost_fields(session)
    assert fields["costUsd"] is None and fields["costText"] == "no price"
    assert fields["models"] == ["claude-sonnet-4-5", UNPRICED]
    assert money_text(None) == "no price" and money_text(Decimal("0.004")) == "<$0.01"
    assert money_text(Decimal("1234.5")) == "$1,234.50"


def test_the_sub_agents_cost_is_kept_and_said_apart() -> None:
    own = (ModelUsage(model="a", usd=Decimal("0.42")),)
    sub = (ModelUsage(model="b", usd=Decimal("0.10")),)
    session = SessionCounts(models=own).with_sub(SessionCounts(models=sub))
    assert (session.cost_usd, session.sub_cost_usd) == (Decimal("0.42"), Decimal("0.10"))
    assert session.cost_words() == "$0.42 (+$0.10 in sub-agents)"
    assert cost_fields(session)["models"] == ["a", "b"]


@pytest.mark.parametrize(
    ("path", "load"), [(CLAUDE, claude_code.load_observations), (CODEX, codex.load_observations)]
)
def test_a_real_sessions_cost_is_the_librarys_for_its_turns(path: Path, load: object) -> None:
    observations = [o for o in load(path) if isinstance(o, Observation)]  # type: ignore[operator]
    usages = [o for o in observations if isinstance(o, Usage)]
    own = [u for u in usages if not isinstance(u.parent_call_id, str)]
    sub = [u for u in usages if isinstance(u.parent_call_id, str)]
    assert own and sub and any(isinstance(u.cache_read_tokens, int) for u in usages)
    session = Thread.from_observations(observations).counts()
    assert session.cost_usd == library_usd(own) > 0
    assert session.sub_cost_usd == library_usd(sub) > 0


def test_a_thread_without_model_turns_says_no_cost_not_zero() -> None:
    fields = cost_fields(SessionCounts(calls=3))
    assert fields == {
        "models": [],
        "costUsd": None,
        "subAgentCostUsd": None,
        "costText": "-",
        "costFrom": None,
    }


def _turn(model: str, usd: float | None) -> Usage:
    return Usage(model=model, input_tokens=1000, output_tokens=1000,
                 cost_usd=msgspec.UNSET if usd is None else usd)  # fmt: skip


def test_the_agents_own_dollars_price_its_turns_and_json_says_who_priced() -> None:
    agent = Thread.from_observations([_turn("no-such-model", 0.25), _turn("no-such-model", 0.5)])
    assert agent.counts().cost_usd == Decimal("0.75")  # the table has no price for it
    assert cost_fields(agent.counts())["costFrom"] == "agent"
    table = Thread.from_observations([_turn("gpt-4o", None)]).counts()
    assert cost_fields(table)["costFrom"] == "price table"
    mixed = Thread.from_observations([_turn("gpt-4o", None), _turn("gpt-4o", 1.0)]).counts()
    assert mixed.cost_usd == table.cost_usd + Decimal(1)  # type: ignore[operator]
    assert cost_fields(mixed)["costFrom"] == "agent and price table"


@pytest.mark.parametrize("bad", [-0.01, float("nan"), float("inf"), 2e6])
def test_an_agents_dollars_out_of_bounds_are_refused(bad: float) -> None:
    with pytest.raises(msgspec.ValidationError, match="cost_usd"):
        _turn("m", bad)
