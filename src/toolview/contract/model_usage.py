"""A thread's tokens per model, and their dollars: what ``contract.counts`` keeps of the turns.

Why apart from the counts: the counts say calls; these say what the model
turns took and cost, summed per model in order of first use (a session that
moved from one model to another shows both), each turn priced as it comes
(``contract.cost``: a price can step with one request's size, so a sum of
tokens is never priced). The index folds peeked records through ``ModelTally``
and ``Thread`` folds its ``usage`` list through ``models_of``: the same sums.
A turn whose agent said its dollars (``Usage.cost_usd``: OpenCode's) is priced
so, not by the table; ``priced_by`` says which priced the sums (``priced_by_of``).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING

import msgspec

from toolview.contract.cost import turn_usd

if TYPE_CHECKING:
    from toolview.contract.observations import Usage

__all__ = [
    "ModelTally",
    "ModelUsage",
    "merge_models",
    "models_cost",
    "models_of",
    "priced_by_of",
]

AGENT = "agent"
TABLE = "price table"
BOTH = "agent and price table"


class ModelUsage(msgspec.Struct, frozen=True, kw_only=True):
    """One model's tokens over a thread's turns, and their price (``None``: no price).

    ``input_tokens`` leaves the cached tokens out (``cache_read_tokens`` and
    ``cache_write_tokens`` say them), as the ``usage`` observation does.
    """

    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    usd: Decimal | None = Decimal(0)
    priced_by: str = ""
    """Who said the dollars: ``agent``, ``price table``, or both (over several turns)."""

    def plus(self, other: ModelUsage) -> ModelUsage:
        """Both summed (a price unknown on either side is unknown)."""
        usd = None if self.usd is None or other.usd is None else self.usd + other.usd
        return ModelUsage(
            model=self.model,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            usd=usd,
            priced_by=_both(self.priced_by, other.priced_by),
        )


class ModelTally:
    """Turns added one by one, summed per model in order of first use, each priced as it comes."""

    def __init__(self) -> None:
        self._models: dict[str, ModelUsage] = {}

    def add(
        self, model: str, tokens: tuple[int, int, int, int], agent_usd: float | None = None
    ) -> None:
        """One turn: ``tokens`` is (input without cache, output, cache read, cache write);
        ``agent_usd`` the dollars the agent said it cost (then the table is not asked)."""
        said = agent_usd is not None
        usage = ModelUsage(
            model=model,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            cache_read_tokens=tokens[2],
            cache_write_tokens=tokens[3],
            usd=Decimal(str(agent_usd)) if said else turn_usd(model, *tokens),
            priced_by=AGENT if said else TABLE,
        )
        held = self._models.get(model)
        self._models[model] = usage if held is None else held.plus(usage)

    def models(self) -> tuple[ModelUsage, ...]:
        """The sums so far, one per model."""
        return tuple(self._models.values())


def models_of(usages: Iterable[Usage]) -> tuple[ModelUsage, ...]:
    """``usages`` (the model turns) summed and priced per model."""
    tally = ModelTally()
    for usage in usages:
        tally.add(
            usage.model,
            (
                usage.input_tokens,
                usage.output_tokens,
                _count(usage.cache_read_tokens),
                _count(usage.cache_write_tokens),
            ),
            usage.cost_usd if isinstance(usage.cost_usd, int | float) else None,
        )
    return tally.models()


def merge_models(*groups: tuple[ModelUsage, ...]) -> tuple[ModelUsage, ...]:
    """The groups' models summed per model, in order of first appearance."""
    merged: dict[str, ModelUsage] = {}
    for group in groups:
        for usage in group:
            held = merged.get(usage.model)
            merged[usage.model] = usage if held is None else held.plus(usage)
    return tuple(merged.values())


def models_cost(models: tuple[ModelUsage, ...]) -> Decimal | None:
    """The dollars of ``models``; ``None`` (no price) when any of them has none, or none ran."""
    if not models or any(usage.usd is None for usage in models):
        return None
    return sum((usage.usd for usage in models if usage.usd is not None), Decimal(0))


def priced_by_of(*groups: tuple[ModelUsage, ...]) -> str | None:
    """Who priced ``groups``' turns (``agent``, ``price table``, both); None: no turn."""
    said = ""
    for group in groups:
        for usage in group:
            said = _both(said, usage.priced_by)
    return said or None


def _both(one: str, other: str) -> str:
    return one if one == other or not other else other if not one else BOTH


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0
