"""The thread page header's facts: model(s), tokens and time, beside the counts line.

Why its own piece: the header says what the session used, from
``contract.counts`` (the one home of a session's models, tokens and span),
never summed from the calls drawn (a page draws only a window of them, and
none of its sub-agents' turns beside it). Cost and status have their lines
already (``counts_line``, the status line from ``running``): not said twice.
"""

from __future__ import annotations

import json
from typing import Final

from toolview.contract.counts import SessionCounts
from toolview.render.summary_words import span_text
from toolview.safety import escape_html

__all__ = ["FACTS_HEADER", "facts_html", "facts_json", "facts_pairs"]

# the summary fragment carries the facts in this header, so ``static/live.js`` redraws
# them (as text) with the counts line as the thread grows, without a request of its own
FACTS_HEADER: Final = "x-toolview-facts"


def facts_html(counts: SessionCounts) -> str:
    """``<dl class="tv-facts">``: each known fact a term and its words; "" when none is known."""
    pairs = facts_pairs(counts)
    if not pairs:
        return ""
    items = "".join(
        f'<div class="tv-fact"><dt>{escape_html(term)}</dt><dd>{escape_html(words)}</dd></div>'
        for term, words in pairs
    )
    return f'<dl class="tv-facts" aria-label="Session">{items}</dl>'


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
