"""What a model turn cost, in US dollars, priced by ``genai-prices``: the one home of cost.

Why per turn and not per session total: a price can step with the size of
one request (Claude Sonnet's input above 200k tokens costs twice as much), so
pricing a session's summed tokens would price every long session at the top
tier. Each ``usage`` observation is priced as the library prices that request
and the dollars are summed (``contract.counts.ModelTally``).

Why ``None`` and never ``0``: a model the library does not know (Codex's
``unknown``, a local model, a new name) has no price, and "$0.00" would say it
was free. ``cost_text`` says it: ``no price``.

Our usage counts input WITHOUT the cached tokens (Claude Code's convention;
Codex's cached input is taken out when read, ``hosts.codex.events``); the
library's ``input_tokens`` counts them in, so they are added back here.

The library's own rules and rates are read ahead into ``price_table``
(``price_match`` prices from it, ~10 ms); ``genai_prices`` (pydantic and the
HTTP client it brings, ~240 ms) is imported only for a model the table cannot
price (a price that changes on a date, or another version of the library).
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Final

from toolview.contract.price_match import MISS, table_usd

__all__ = ["CostTerms", "cost_text", "money_text", "turn_usd"]

_CACHE: Final = 1 << 16

# (model, input without cache, output, cache read, cache write)
CostTerms = tuple[str, int, int, int, int]


def turn_usd(
    model: str, input_tokens: int, output_tokens: int, read: int, write: int
) -> Decimal | None:
    """One turn's price in dollars, or ``None`` when the library cannot price ``model``."""
    return _priced((model, input_tokens, output_tokens, read, write))


@lru_cache(maxsize=_CACHE)
def _priced(terms: CostTerms) -> Decimal | None:
    """Cached: a live page reads the counts again every frame, each turn priced once."""
    model, input_tokens, output_tokens, read, write = terms
    usd = table_usd(model, (input_tokens, output_tokens, read, write))
    if usd != MISS:
        return usd if isinstance(usd, Decimal) else None
    if _unpriced(model):
        return None
    from genai_prices import Usage, calc_price  # lazy: see the module

    usage = Usage(
        input_tokens=input_tokens + read + write,
        output_tokens=output_tokens,
        cache_read_tokens=read,
        cache_write_tokens=write,
    )
    try:
        return calc_price(usage, model).total_price
    except (LookupError, ValueError):
        return None


@lru_cache(maxsize=1024)
def _unpriced(model: str) -> bool:
    """Whether the library knows no ``model`` (asked once a name: a miss raises, slowly)."""
    from genai_prices import Usage, calc_price  # lazy: see the module

    try:
        calc_price(Usage(input_tokens=1), model)
    except (LookupError, ValueError):
        return True
    return False


def money_text(usd: Decimal | None) -> str:
    """``$0.42``, ``<$0.01``, ``$1,234.50``; ``no price`` for ``None``, never ``$0``."""
    if usd is None:
        return "no price"
    if 0 < usd < Decimal("0.01"):
        return "<$0.01"
    return f"${usd:,.2f}"


def cost_text(own: Decimal | None, sub: Decimal | None, subs: bool) -> str:
    """``$0.42 (+$0.10 in sub-agents)``: the sub-agents' share only where they ran turns."""
    words = money_text(own)
    return f"{words} (+{money_text(sub)} in sub-agents)" if subs else words
