"""The thread page header's facts: model(s), tokens and time, beside the counts line.

Why its own piece: the header says what the session used, from
``contract.counts`` (the one home of a session's models, tokens and span),
never summed from the calls drawn (a page draws only a window of them, and
none of its sub-agents' turns beside it). Cost and status have their lines
already (``counts_line``, the status line from ``running``): not said twice.
Who and where — agent, project, branch, start — are the index's card's
(``Directory.card``, the card ``/api/threads`` lists), copied, never re-derived:
a list of its own (``tv-who``, styled as ``tv-facts``) the live script leaves alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from toolview.contract.counts import SessionCounts
from toolview.render.summary_words import span_text
from toolview.safety import escape_html

__all__ = ["FACTS_HEADER", "card_pairs", "facts_html", "facts_json", "facts_pairs", "who_html"]

# the summary fragment carries the facts in this header, so ``static/live.js`` redraws
# them (as text) with the counts line as the thread grows, without a request of its own
FACTS_HEADER: Final = "x-toolview-facts"


# (the card's field, the term the header says it under)
_CARD_FACTS: Final = (
    ("agent", "Agent"),
    ("project", "Project"),
    ("branch", "Branch"),
    ("machine", "Machine"),
    ("user", "User"),
    ("startedAt", "Started"),
)


def facts_html(counts: SessionCounts) -> str:
    """``<dl class="tv-facts">``: each known fact a term and its words; "" when none is known."""
    return _list(facts_pairs(counts), "tv-facts", "Session")


def who_html(card: Mapping[str, object]) -> str:
    """``<dl class="tv-who">``: the card's agent, project, branch and start."""
    return _list(card_pairs(card), "tv-who", "Agent and project")


def card_pairs(card: Mapping[str, object]) -> list[tuple[str, str]]:
    """The card's facts as (term, words), each one the card knows; the start in UTC minutes."""
    pairs: list[tuple[str, str]] = []
    for key, term in _CARD_FACTS:
        value = card.get(key)
        if not value:
            continue
        words = str(value)
        if key == "startedAt":
            words = words.replace("T", " ", 1).removesuffix("Z")[:16] + " UTC"
        pairs.append((term, words))
    return pairs


def _list(pairs: list[tuple[str, str]], classes: str, label: str) -> str:
    if not pairs:
        return ""
    items = "".join(
        f'<div class="tv-fact"><dt>{escape_html(term)}</dt><dd>{escape_html(words)}</dd></div>'
        for term, words in pairs
    )
    return f'<dl class="{classes}" aria-label="{label}">{items}</dl>'


def facts_pairs(counts: SessionCounts) -> list[tuple[str, str]]:
    """The facts as (term, words): the models in their order of use (the sub-agents' ones
    after), tokens (the sub-agents' share said apart), the thread's length."""
    pairs: list[tuple[str, str]] = []
    models = list(dict.fromkeys(m.model for m in (*counts.models, *counts.sub_models)))
    if models:
        pairs.append(("Model" if len(models) == 1 else "Models", ", ".join(models)))
    if counts.tokens or counts.sub_tokens:
        sub = f" (+{counts.sub_tokens:,} in sub-agents)" if counts.sub_tokens else ""
        pairs.append(("Tokens", f"{counts.tokens:,}{sub}"))
    if counts.span_ms is not None:
        pairs.append(("Time", span_text(counts.span_ms)))
    return pairs


def facts_json(counts: SessionCounts) -> str:
    """The facts for ``FACTS_HEADER``: ``[["Model", "claude-x"], …]``, ASCII (a header's)."""
    return json.dumps(facts_pairs(counts))
