"""Type aliases shared by the contract's shapes.

Kept apart so every shape names its constraints the same way (httpx keeps a
``types.py`` for the same reason).
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import msgspec

__all__ = [
    "MAX_DOLLARS",
    "TIMESTAMP_PATTERN",
    "Dollars",
    "JSONObject",
    "JSONValue",
    "NonEmptyStr",
    "NonNegativeInt",
    "Timestamp",
]

NonEmptyStr: TypeAlias = Annotated[str, msgspec.Meta(min_length=1)]
NonNegativeInt: TypeAlias = Annotated[int, msgspec.Meta(ge=0)]
MAX_DOLLARS = 1_000_000.0
"""A bound on one turn's dollars as an agent reports them: more is a bad record."""
Dollars: TypeAlias = Annotated[float, msgspec.Meta(ge=0, le=MAX_DOLLARS)]
JSONValue: TypeAlias = Any
JSONObject: TypeAlias = dict[str, Any]
TIMESTAMP_PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$"
Timestamp: TypeAlias = Annotated[str, msgspec.Meta(pattern=TIMESTAMP_PATTERN)]
"""RFC 3339 in UTC (``2026-12-01T23:44:20.123Z``): hosts convert, nothing guesses a zone.

The pattern is the shape, and all the wire checks: a date that does not exist
(``2026-02-31``), which no pattern can refuse, is read as no time by every
surface (``contract.moments.parse_at``) and reported by ``toolview check``.
The schema says no ``format: date-time`` for that reason: the server takes
such an observation (it keeps what it was given) rather than refuse a batch.
"""
