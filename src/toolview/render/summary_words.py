"""The summary's lines after the counts: how long the thread took, what its models used.

Apart from ``words`` (which says the counts) because these lines exist only
where a thread says when (``at``) and what its turns cost (``usage``): every
surface writes them after its counts line, one line each, the same words.
"""

from __future__ import annotations

from typing import Final

from toolview.contract.counts import counts_text
from toolview.render.clean import clean_field
from toolview.render.summary import Summary
from toolview.render.words import duration_text

__all__ = ["span_text", "summary_more"]

_MODEL_CHARS: Final = 100


def summary_more(summary: Summary) -> list[str]:
    """The lines after the counts: with sub-agents, everyone's counts; the time span; the tokens.

    ``all 11 calls (+156 in sub-agents), 0 failed (+23 in sub-agents)``
    (``contract.counts.counts_text``: the words ``sessions``, the index and
    the page say) where sub-agents made calls: the line above counts the
    thread's own calls only.

    ``time 12 min 3 s`` and ``tokens claude-sonnet: 1,200 input, 80 output,
    900 cache read`` (a cache count only where some turn gave one). A model's
    name is untrusted text: cleaned and bounded like a tool's name. Then
    ``cost $0.42 (+$0.10 in sub-agents)`` (``contract.counts``' words; ``no
    price`` where a model has none).
    """
    session = summary.counts
    lines = [f"all {counts_text(session)}"] if session is not None and session.sub_calls else []
    if summary.span_ms is not None:
        lines.append(f"time {span_text(summary.span_ms)}")
    for tokens in summary.tokens:
        counts = [f"{tokens.input:,} input", f"{tokens.output:,} output"]
        if tokens.cache_read is not None:
            counts.append(f"{tokens.cache_read:,} cache read")
        if tokens.cache_write is not None:
            counts.append(f"{tokens.cache_write:,} cache write")
        lines.append(f"tokens {clean_field(tokens.model, _MODEL_CHARS)}: {', '.join(counts)}")
    if session is not None and (session.models or session.sub_models):
        lines.append(f"cost {session.cost_words()}")
    return lines


def span_text(span_ms: int) -> str:
    """A thread's length: ``duration_text`` up to an hour, then ``2 h 5 min 3 s``."""
    if span_ms < 3_600_000:
        return duration_text(span_ms)
    hours, rest = divmod(span_ms // 1000, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:,} h {minutes} min {seconds} s"
