"""A span as the GenAI mapping reads it: plain values, no OpenTelemetry types.

Why a shape of our own: the mapping is sans-IO and library users may feed it
spans from anywhere (the server's OTLP decoder, an SDK exporter of their own,
a file), so it depends on neither protobuf nor the OpenTelemetry SDK. Ids are
lowercase hex, as OTLP's JSON mapping and the W3C trace context write them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import IntEnum
from typing import Final

import msgspec

from toolview.contract.moments import format_at

__all__ = [
    "SpanEvent",
    "SpanStatus",
    "TelemetrySpan",
    "Unmappable",
    "at_from_nanos",
    "span_at",
]

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


class Unmappable(ValueError):
    """A GenAI span toolview cannot show; the message says why."""


class SpanStatus(IntEnum):
    """A span's status code, numbered as OTLP numbers it."""

    UNSET = 0
    OK = 1
    ERROR = 2


@dataclass(frozen=True)
class SpanEvent:
    """One event of a span (an ``exception`` event holds a failure's type and message)."""

    name: str
    attributes: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class TelemetrySpan:
    """One finished span: ids in hex, times in nanoseconds since the epoch (0: unknown)."""

    trace_id: str
    span_id: str
    name: str
    start_ns: int = 0
    end_ns: int = 0
    attributes: Mapping[str, object] = field(default_factory=dict)
    status: SpanStatus = SpanStatus.UNSET
    status_message: str = ""
    events: tuple[SpanEvent, ...] = ()

    def text(self, key: str) -> str | None:
        """The attribute ``key`` if it is a non-empty string, else ``None``."""
        value = self.attributes.get(key)
        return value if isinstance(value, str) and value else None

    def count(self, key: str) -> int | None:
        """The attribute ``key`` if it is a whole number ≥ 0, else ``None``."""
        value = self.attributes.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return None
        return value


def at_from_nanos(nanos: int) -> str | None:
    """A span time (ns since the epoch) as an observation's ``at``; ``None`` for 0 or nonsense."""
    if nanos <= 0:
        return None
    try:
        return format_at(_EPOCH + timedelta(microseconds=nanos // 1000))
    except OverflowError:
        return None


def span_at(nanos: int) -> str | msgspec.UnsetType:
    """A span time as an observation's ``at``; absent (never a guess) when the span has none."""
    at = at_from_nanos(nanos)
    return msgspec.UNSET if at is None else at
