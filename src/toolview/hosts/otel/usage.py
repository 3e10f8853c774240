"""A model call's span (``chat`` and its kin) as a ``usage`` observation.

The model is the one that answered (``gen_ai.response.model``), else the one
asked for; the counts are ``gen_ai.usage.*`` (OpenInference's LLM spans:
``llm.model_name`` and ``llm.token_count.*``). A span with neither an input
nor an output count has no usage to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import msgspec

from toolview.contract import Usage
from toolview.hosts.otel.spans import TelemetrySpan, span_at

__all__ = [
    "CHAT_OPERATIONS",
    "GENAI_USAGE",
    "OPENINFERENCE_USAGE",
    "UsageDialect",
    "has_usage",
    "usage",
]

CHAT_OPERATIONS: Final = frozenset({"chat", "text_completion", "generate_content"})


@dataclass(frozen=True)
class UsageDialect:
    """Where a convention keeps the model's name (first found wins) and each token count."""

    models: tuple[str, ...]
    tokens: Mapping[str, str]  # Usage's field → the attribute


GENAI_USAGE: Final = UsageDialect(
    ("gen_ai.response.model", "gen_ai.request.model"),
    {
        "input_tokens": "gen_ai.usage.input_tokens",
        "output_tokens": "gen_ai.usage.output_tokens",
        "cache_read_tokens": "gen_ai.usage.cache_read.input_tokens",
        "cache_write_tokens": "gen_ai.usage.cache_creation.input_tokens",
    },
)
OPENINFERENCE_USAGE: Final = UsageDialect(
    ("llm.model_name",),
    {
        "input_tokens": "llm.token_count.prompt",
        "output_tokens": "llm.token_count.completion",
        "cache_read_tokens": "llm.token_count.prompt_details.cache_read",
        "cache_write_tokens": "llm.token_count.prompt_details.cache_write",
    },
)


def has_usage(span: TelemetrySpan) -> bool:
    """Whether the span carries any GenAI token count (a model call that names no operation)."""
    return any(key in span.attributes for key in GENAI_USAGE.tokens.values())


def usage(span: TelemetrySpan, dialect: UsageDialect = GENAI_USAGE) -> Usage | None:
    """The span's token counts, if it has any."""
    counts = {field: span.count(key) for field, key in dialect.tokens.items()}
    if counts["input_tokens"] is None and counts["output_tokens"] is None:
        return None
    model = next(filter(None, map(span.text, dialect.models)), "unknown")
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
