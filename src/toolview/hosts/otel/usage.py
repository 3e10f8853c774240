"""A model call's span (``chat`` and its kin) as a ``usage`` observation.

The model is the one that answered (``gen_ai.response.model``), else the one
asked for; the counts are ``gen_ai.usage.*``. A span with neither an input
nor an output count has no usage to show.
"""

from __future__ import annotations

from typing import Final

import msgspec

from toolview.contract import Usage
from toolview.hosts.otel.spans import TelemetrySpan, span_at

__all__ = ["CHAT_OPERATIONS", "has_usage", "usage"]

CHAT_OPERATIONS: Final = frozenset({"chat", "text_completion", "generate_content"})
_TOKENS: Final = {
    "input_tokens": "gen_ai.usage.input_tokens",
    "output_tokens": "gen_ai.usage.output_tokens",
    "cache_read_tokens": "gen_ai.usage.cache_read.input_tokens",
    "cache_write_tokens": "gen_ai.usage.cache_creation.input_tokens",
}


def has_usage(span: TelemetrySpan) -> bool:
    """Whether the span carries any token count (a model call that names no operation)."""
    return any(key in span.attributes for key in _TOKENS.values())


def usage(span: TelemetrySpan) -> Usage | None:
    """The span's token counts, if it has any."""
    counts = {field: span.count(key) for field, key in _TOKENS.items()}
    if counts["input_tokens"] is None and counts["output_tokens"] is None:
        return None
    model = span.text("gen_ai.response.model") or span.text("gen_ai.request.model") or "unknown"
    return Usage(
        model=model,
        input_tokens=counts["input_tokens"] or 0,
        output_tokens=counts["output_tokens"] or 0,
        cache_read_tokens=_or_unset(counts["cache_read_tokens"]),
        cache_write_tokens=_or_unset(counts["cache_write_tokens"]),
        at=span_at(span.end_ns),
    )


def _or_unset(count: int | None) -> int | msgspec.UnsetType:
    return msgspec.UNSET if count is None else count
