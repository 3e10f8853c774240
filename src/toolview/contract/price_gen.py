"""The source of ``contract.price_table``: genai-prices' own rules and rates, read from its data.

Why generated and not written by hand: a price is never decided here. This
reads the pinned library's providers in its order, each provider's and model's
match rules as they are, and each model's rates; a model whose price is more
than rates on our four token counts (prices that change on a date, a price per
request, units our usage would have to infer) is written as ``None``: the
library itself prices it. The table is keyed by a digest of the library's own
sources (``price_match.library_key``): another version, or edited data, is a
miss, never a wrong price.

Regenerate after changing the pin:
``python -c "from toolview.contract.price_gen import price_table; print(price_table(), end='')"
> src/toolview/contract/price_table.py`` then ``ruff format`` it.
tests/contract/test_price_table.py says when it is stale.
"""

from __future__ import annotations

from typing import Any

from toolview.contract.price_match import library_key

__all__ = ["SLOTS", "price_table", "read_providers"]

# A price key the table computes, and the token count it is applied to. Keys
# read as "zero" price usage we never report (inferred 0 by the library, which
# the Hypothesis test in tests/contract/test_price_table.py checks).
SLOTS: dict[str, str] = {
    "input_mtok": "input",
    "output_mtok": "output",
    "cache_read_mtok": "read",
    "cache_write_mtok": "write",
    "cache_write_1h_mtok": "zero",
    "web_searches_kcount": "zero",
    "storage_searches_kcount": "zero",
    "input_audio_mtok": "zero",
    "cache_audio_read_mtok": "zero",
    "output_reasoning_mtok": "zero",
}


def read_providers() -> tuple[Any, ...]:
    """Every provider of the installed genai-prices, as plain tuples (see ``price_match``)."""
    from genai_prices import data_snapshot

    return tuple(
        (
            provider.id,
            None if provider.model_match is None else _clause(provider.model_match),
            tuple(provider.fallback_model_providers or ()),
            tuple((_clause(model.match), _rates(model.prices)) for model in provider.models),
        )
        for provider in data_snapshot.get_snapshot().providers
    )


def _clause(clause: Any) -> Any:
    """A match rule as a tuple: ``("starts_with", text)`` ... ``("or", (rules))``."""
    for name in ("starts_with", "ends_with", "contains", "equals"):
        if hasattr(clause, name):
            return (name, getattr(clause, name).lower())
    if hasattr(clause, "regex"):
        return ("regex", clause.regex)
    if hasattr(clause, "or_"):
        return ("or", tuple(_clause(inner) for inner in clause.or_))
    return ("and", tuple(_clause(inner) for inner in clause.and_))


def _rates(prices: Any) -> Any:
    """``(slot, per, base, tiers)`` per priced key in the library's order, or ``None``."""
    from genai_prices.types import ModelPrice, TieredPrices
    from genai_prices.units import _get_registry

    if not isinstance(prices, ModelPrice):
        return None  # prices that change on a date: the library decides which applies
    registry = _get_registry()
    rows = []
    for key, value in prices.__dict__.items():
        if key.startswith("_") or value is None:
            continue
        if key not in SLOTS:
            return None
        per = registry.unit_for_price_key(key).per
        if isinstance(value, TieredPrices):
            tiers = tuple((tier.start, str(tier.price)) for tier in value.tiers)
            rows.append((SLOTS[key], per, str(value.base), tiers))
        else:
            rows.append((SLOTS[key], per, str(value), ()))
    return tuple(rows)


def price_table() -> str:
    """The text of ``contract.price_table`` for the installed genai-prices."""
    import json

    from genai_prices import types

    rows = json.dumps(read_providers(), separators=(",", ":"))
    return (
        "# ruff: noqa: E501\n"
        '"""genai-prices\' providers, match rules and rates, read by ``price_gen.price_table``.\n\n'
        "Generated: do not edit. Used only while the installed library's sources digest to\n"
        "``KEY`` (``price_match.library_key``); otherwise every name is a miss. JSON in\n"
        "one string: read in ~5 ms where the same tuples as Python take ~400 ms to compile.\n"
        '"""\n\n'
        "from typing import Final\n\n"
        '__all__ = ["COMPACT_DATE", "KEY", "PROVIDERS_JSON"]\n\n'
        f"KEY: Final = {library_key()!r}\n"
        f"COMPACT_DATE: Final = {types._COMPACT_DATE_RE.pattern!r}\n"
        f"PROVIDERS_JSON: Final = {rows!r}\n"
    )
