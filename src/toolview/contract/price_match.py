"""A turn priced from ``price_table`` as genai-prices prices it, without importing it (240 ms).

Why: the library builds ~1.6 MB of pydantic models when imported; ``show`` and
``sessions`` paid that on the first turn. The table holds the library's own
providers, match rules and rates (``price_gen``); this finds the provider and
model as ``DataSnapshot.find_provider_model`` and ``Provider.find_model`` do
(first provider whose rule matches the lower-cased name, its models in order,
one step of fallback providers, then the compact date ``-20251211`` retried as
``-2025-12-11``) and sums the rates as ``ModelPrice.calc_price`` does (each
key's price times its count over ``per``, in the library's order; a tier by the
whole input). ``MISS`` says "ask the library": the installed library is not
the one the table was read from, or the model's price is more than rates.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
from decimal import Decimal
from functools import lru_cache
from typing import Any, Final

__all__ = ["MISS", "library_key", "table_usd"]

MISS: Final = "miss"


def library_key() -> str:
    """A digest of the installed genai-prices' sources (data and rules): ~3 ms, no import."""
    spec = importlib.util.find_spec("genai_prices")
    if spec is None or spec.origin is None:
        return ""
    folder = os.path.dirname(spec.origin)  # no pathlib: light commands never import it
    digest = hashlib.sha256()
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):
        with open(os.path.join(folder, name), "rb") as source:
            digest.update(name.encode() + b"\0" + source.read())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _table() -> tuple[Any, ...] | None:
    """The table's providers while the installed library is the one it was read from."""
    import json

    from toolview.contract import price_table

    if library_key() != price_table.KEY:
        return None
    return tuple(json.loads(price_table.PROVIDERS_JSON))


def table_usd(model: str, tokens: tuple[int, int, int, int]) -> Decimal | str | None:
    """``tokens`` (input without cache, output, cache read, cache write) in dollars, or ``MISS``."""
    providers = _table()
    if providers is None:
        return MISS
    rates = _model_rates(model.lower())
    if rates is None:
        return None
    return MISS if rates == MISS else _sum(rates, tokens)


@lru_cache(maxsize=1024)
def _model_rates(ref: str) -> Any:
    """The rates of the model ``ref`` names; ``None``: no provider or model; ``MISS``: not rates."""
    providers = _table() or ()
    provider = next((p for p in providers if p[1] is not None and _is_match(p[1], ref)), None)
    if provider is None:
        return None
    found = _find_model(providers, provider, ref)
    if found is None:
        from toolview.contract.price_table import COMPACT_DATE

        normalized = re.sub(COMPACT_DATE, _dashed, ref)
        found = None if normalized == ref else _find_model(providers, provider, normalized)
    if found is None:
        return None
    return MISS if found[1] is None else found[1]


def _find_model(providers: tuple[Any, ...], provider: Any, ref: str) -> Any:
    for model in provider[3]:
        if _is_match(model[0], ref):
            return model
    for fallback_id in provider[2]:
        fallback = next((p for p in providers if p[0] == fallback_id), None)
        if fallback is not None:
            model = next((m for m in fallback[3] if _is_match(m[0], ref)), None)
            if model is not None:
                return model
    return None


def _is_match(clause: Any, ref: str) -> bool:
    """One rule of the library's ``MatchLogic`` (its texts stored lower-cased)."""
    kind, arg = clause
    if kind == "or":
        return any(_is_match(inner, ref) for inner in arg)
    if kind == "and":
        return all(_is_match(inner, ref) for inner in arg)
    if kind == "regex":
        return re.search(arg, ref) is not None
    tests = {"starts_with": ref.startswith, "ends_with": ref.endswith}
    if kind in tests:
        return bool(tests[kind](arg))
    return arg in ref if kind == "contains" else ref == arg


def _dashed(match: re.Match[str]) -> str:
    """``_normalize_compact_dated_ref``: a real date only."""
    from datetime import date

    year, month, day = (int(match.group(index)) for index in range(2, 5))
    try:
        date(year, month, day)
    except ValueError:
        return match.group(0)
    return f"{match.group(1)}{year:04d}-{month:02d}-{day:02d}"


def _sum(rates: tuple[Any, ...], tokens: tuple[int, int, int, int]) -> Decimal:
    """``ModelPrice.calc_price`` on these rates: each key's leaf count, priced, in order."""
    own, output, read, write = tokens
    whole_input = own + read + write
    slots = {row[0] for row in rates}
    cached = (read if "read" in slots else 0) + (write if "write" in slots else 0)
    counts = {
        "input": whole_input - cached,
        "output": output,
        "read": read,
        "write": write,
        "zero": 0,
    }
    total = Decimal(0)
    for slot, per, base, tiers in rates:
        price = Decimal(base)
        for start, tier_price in reversed(tiers):
            if whole_input > start:
                price = Decimal(tier_price)
                break
        total += price * Decimal(counts[slot]) / per
    return total
