"""A session's counts: calls, failed, running, tokens, time — its own and its sub-agents'.

Why one home: ``sessions``, ``show``'s summary, the web index and the page
each counted by a rule of their own (every ``tool-call`` record, or only the
thread's own calls, or the calls drawn on a page) and the same session read
"167 calls, 23 failed" in one place and "11 calls, 0 failed" in another. Here
a session's counts are read from the call ledgers (``contract.ledger``: one
per thread, a sub-agent's thread included), which already fold every
observation O(1) and decide each call's state: a call is *failed* when its
ledger state is ``error`` (an error result), *running* while ``pending``.
A call a stream forgot is still counted (``Ledger.gone``).

``counts_text`` is the one way these counts are said in words, on every
surface: ``11 calls (+156 in sub-agents), 0 failed (+23 in sub-agents)``.

The tokens are kept per model (``ModelUsage``: input, output, cache read,
cache write, and the dollars ``contract.cost`` priced turn by turn), the
thread's own apart from its sub-agents'; ``cost_usd`` / ``sub_cost_usd`` and
``cost_words`` are what every view says of the cost (``None``: no price).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

import msgspec

from toolview.contract.cost import cost_text
from toolview.contract.ledger import Ledger
from toolview.contract.model_usage import (
    ModelUsage,
    merge_models,
    models_cost,
    models_of,
    priced_by_of,
)
from toolview.contract.tool_tally import ToolCount, merge_tools

if TYPE_CHECKING:
    from toolview.contract.moments import TimeSpan
    from toolview.contract.observations import Usage

__all__ = [
    "Counted",
    "SessionCounts",
    "cost_fields",
    "counts_text",
    "ledger_counts",
    "thread_counts",
]


class SessionCounts(msgspec.Struct, frozen=True, kw_only=True):
    """How many calls a session made and how they went; ``sub_*``: its sub-agents', all depths.

    ``tokens``: input plus output tokens of the model turns; ``span_ms``: its
    first ``at`` to its last (``None`` without two times); ``models``: the
    tokens and dollars per model (``sub_models``: the sub-agents', all depths);
    ``waiting``: the calls waiting for a person (``needs_input``, also counted
    running), its own and its sub-agents' together: the index says such a
    session waits for you.
    """

    calls: int = 0
    failed: int = 0
    running: int = 0
    tokens: int = 0
    sub_calls: int = 0
    sub_failed: int = 0
    sub_running: int = 0
    sub_tokens: int = 0
    waiting: int = 0
    span_ms: int | None = None
    models: tuple[ModelUsage, ...] = ()
    sub_models: tuple[ModelUsage, ...] = ()
    # every call by its tool, the sub-agents' included (``contract.tool_tally``: the ledger's)
    tools: tuple[ToolCount, ...] = ()

    @property
    def cost_usd(self) -> Decimal | None:
        """The thread's own turns' dollars (``None``: no price, or no turn)."""
        return models_cost(self.models)

    @property
    def sub_cost_usd(self) -> Decimal | None:
        """The sub-agents' turns' dollars (``None``: no price, or no turn)."""
        return models_cost(self.sub_models)

    def cost_words(self) -> str:
        """``$0.42 (+$0.10 in sub-agents)``, ``no price``: the cost as every view says it
        (``-`` for a thread that counted no model turn: nothing to price, not $0)."""
        if not self.models and not self.sub_models:
            return "-"
        return cost_text(self.cost_usd, self.sub_cost_usd, bool(self.sub_models))

    def with_sub(self, sub: SessionCounts) -> SessionCounts:
        """These counts with every count of ``sub`` (a sub-agent's, own and below) added below."""
        return msgspec.structs.replace(
            self,
            sub_calls=self.sub_calls + sub.calls + sub.sub_calls,
            sub_failed=self.sub_failed + sub.failed + sub.sub_failed,
            sub_running=self.sub_running + sub.running + sub.sub_running,
            sub_tokens=self.sub_tokens + sub.tokens + sub.sub_tokens,
            waiting=self.waiting + sub.waiting,
            sub_models=merge_models(self.sub_models, sub.models, sub.sub_models),
            tools=merge_tools(self.tools, sub.tools),
        )

    def plus(self, other: SessionCounts) -> SessionCounts:
        """Both counts added, field by field (the span is this one's)."""
        return msgspec.structs.replace(
            self.with_sub(
                msgspec.structs.replace(other, calls=0, failed=0, running=0, tokens=0, models=())
            ),
            calls=self.calls + other.calls,
            failed=self.failed + other.failed,
            running=self.running + other.running,
            tokens=self.tokens + other.tokens,
            models=merge_models(self.models, other.models),
        )


class Counted(Protocol):
    """What the counts read of a thread (``contract.thread.Thread``, which imports this)."""

    ledger: Ledger
    usage: list[Usage]
    span: TimeSpan
    gone_below: SessionCounts

    def children(self) -> Sequence[Counted]: ...  # pragma: no cover


def thread_counts(thread: Counted) -> SessionCounts:
    """``thread``'s counts: its ledger's, and its sub-agents' threads' at every depth.

    It walks the sub-agents' threads (one per call that ran one), never the
    calls: each ledger already holds its counts.
    """
    counts = ledger_counts(thread.ledger, models_of(thread.usage)).with_sub(thread.gone_below)
    for child in thread.children():
        counts = counts.with_sub(thread_counts(child))
    return msgspec.structs.replace(counts, span_ms=thread.span.ms)


def ledger_counts(ledger: Ledger, models: tuple[ModelUsage, ...] = ()) -> SessionCounts:
    """One thread's own counts, read from its ledger (the calls it forgot included),
    with its turns' ``models`` (``tokens``: their input plus output)."""
    held, gone = ledger.counts, ledger.gone
    return SessionCounts(
        calls=len(ledger) + gone.total(),
        failed=held["error"] + gone["error"],
        running=held["pending"] + held["needs_input"],  # waiting for a person: still open
        waiting=held["needs_input"],
        tokens=sum(usage.input_tokens + usage.output_tokens for usage in models),
        models=models,
        tools=ledger.tools.counts(),
    )


def counts_text(counts: SessionCounts) -> str:
    """``11 calls (+156 in sub-agents), 0 failed (+23 in sub-agents)``; running only when some are.

    The sub-agents' share is said only when sub-agents made calls.
    """
    subs = counts.sub_calls > 0
    noun = "call" if counts.calls == 1 else "calls"
    words = [
        f"{counts.calls:,} {noun}" + _sub(counts.sub_calls, subs),
        f"{counts.failed:,} failed" + _sub(counts.sub_failed, subs),
    ]
    if counts.running or counts.sub_running:
        words.append(f"{counts.running:,} running" + _sub(counts.sub_running, subs))
    return ", ".join(words)


def _sub(count: int, shown: bool) -> str:
    return f" (+{count:,} in sub-agents)" if shown else ""


def cost_fields(counts: SessionCounts) -> dict[str, object]:
    """The cost as JSON says it, one set of names for ``sessions --json`` and ``/api/threads``.

    ``models``: every model the session's turns used (its own first, then its
    sub-agents'); ``costUsd`` / ``subAgentCostUsd``: dollars, ``null`` for no
    price (never 0); ``costText``: ``counts.cost_words()``; ``costFrom``: who
    said the dollars (``agent``: the agent's own figure, OpenCode's; ``price
    table``: toolview's; ``agent and price table``), ``null`` with no turn.
    """
    own, sub = counts.cost_usd, counts.sub_cost_usd
    return {
        "models": [usage.model for usage in merge_models(counts.models, counts.sub_models)],
        "costUsd": None if own is None else float(own),
        "subAgentCostUsd": None if sub is None else float(sub),
        "costText": counts.cost_words(),
        "costFrom": priced_by_of(counts.models, counts.sub_models),
    }
