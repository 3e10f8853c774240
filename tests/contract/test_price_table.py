"""The price table read ahead from genai-prices (``contract.price_table``) prices as it does.

Every model the pinned library holds, each by its own id, on random usage (tiers
included: counts up to 400k): the table's dollars (``price_match.table_usd``)
equal ``genai_prices.calc_price``'s, and "no price" where it has none; so do the
real fixtures' model names and dated or unknown names. A table read from another
version or other data of the library fails ``test_the_table_is_the_pinned_librarys_data``
(regenerate it: ``price_gen``'s docstring says how) and is never used meanwhile.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from genai_prices import data_snapshot
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cost import library_usd

from toolview.contract import Usage as Turn
from toolview.contract import price_match, price_table
from toolview.contract.cost import turn_usd
from toolview.contract.price_gen import read_providers
from toolview.contract.price_match import MISS, library_key, table_usd

HOSTS = Path(__file__).parents[1] / "hosts"
IDS = sorted({m.id for p in data_snapshot.get_snapshot().providers for m in p.models})
OTHERS = ["gpt-5.2-20251211", "claude-sonnet-4-5-20250929", "Claude-Opus-4-8", "unknown", "m"]


def fixture_models() -> list[str]:
    """Every model name the real sessions under tests/hosts say."""
    said = re.compile(r'"model": ?"([^"]+)"')
    names = {m for f in HOSTS.rglob("*.jsonl") for m in said.findall(f.read_text())}
    return sorted(names)


def library(model: str, tokens: tuple[int, int, int, int]) -> Decimal | None:
    """genai-prices' own price of one turn (``test_cost.library_usd``), or ``None``."""
    own, output, read, write = tokens
    turn = Turn(
        model=model,
        input_tokens=own,
        output_tokens=output,
        cache_read_tokens=read,
        cache_write_tokens=write,
    )
    try:
        return library_usd([turn])
    except (LookupError, ValueError):
        return None


def test_the_table_is_the_pinned_librarys_data() -> None:
    assert library_key() == price_table.KEY, "genai-prices changed: regenerate price_table"
    assert json.loads(price_table.PROVIDERS_JSON) == json.loads(json.dumps(read_providers()))


def test_the_table_prices_the_fixtures_models_without_the_library() -> None:
    names = fixture_models()
    assert {"claude-opus-4-8", "gpt-5.5", "claude-haiku-4-5-20251001"} <= set(names)
    for name in ("claude-opus-4-8", "gpt-5.5", "claude-haiku-4-5-20251001", "gemini-2.5-flash"):
        assert table_usd(name, (1000, 2000, 3000, 4000)) != MISS, name
    assert sum(table_usd(i, (1, 1, 1, 1)) != MISS for i in IDS) > len(IDS) * 3 // 4


@pytest.mark.parametrize("tokens", [(1200, 3400, 5600, 7800), (150_000, 900, 40_000, 30_000)])
def test_every_model_id_costs_what_the_library_says(tokens: tuple[int, int, int, int]) -> None:
    for name in IDS + OTHERS + fixture_models():
        usd = table_usd(name, tokens)
        expected = library(name, tokens)
        if usd != MISS:
            assert usd == expected, name
        assert turn_usd(name, *tokens) == expected, name


counts = st.integers(min_value=0, max_value=400_000)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(IDS + OTHERS + fixture_models()), st.tuples(counts, counts, counts, counts))
def test_random_usage_costs_what_the_library_says(
    name: str, tokens: tuple[int, int, int, int]
) -> None:
    usd = table_usd(name, tokens)
    if usd != MISS:
        assert usd == library(name, tokens)
    assert turn_usd(name, *tokens) == library(name, tokens)


def test_another_librarys_table_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(price_table, "KEY", "another version")
    price_match._table.cache_clear()
    try:
        assert table_usd("claude-opus-4-8", (1, 2, 3, 4)) == MISS
    finally:
        monkeypatch.undo()
        price_match._table.cache_clear()
    assert table_usd("claude-opus-4-8", (1, 2, 3, 4)) == library("claude-opus-4-8", (1, 2, 3, 4))


def test_pricing_the_fixtures_models_never_imports_the_library() -> None:
    """The point of the table: no pydantic models built (~240 ms) to price a known model."""
    names = ["claude-opus-4-8", "gpt-5.5", "claude-haiku-4-5-20251001", "no-such-model"]
    script = (
        "import sys\n"
        "from toolview.contract.cost import turn_usd\n"
        f"prices = [turn_usd(name, 10, 20, 30, 40) for name in {names!r}]\n"
        "assert prices[-1] is None and all(prices[:-1]), prices\n"
        "print('genai_prices' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
