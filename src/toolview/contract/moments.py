"""Reading an observation's ``at``: one parse, used by every surface and the AG-UI mapping.

``at`` is validated on the wire as an RFC 3339 UTC string (``contract.types.
Timestamp``), but a pattern cannot tell a real date from ``2026-02-31``, and
an observation built in Python is not validated at all. So every reader goes
through ``parse_at``, which answers ``None`` for anything it cannot read: a
time that cannot be read is absent, never guessed, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Final

__all__ = ["TimeSpan", "at_from_ms", "at_from_text", "at_ms", "format_at", "parse_at", "span_ms"]

_SHAPE: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)


def parse_at(at: object) -> datetime | None:
    """The moment ``at`` names (aware, UTC), or ``None`` when absent or unreadable."""
    if not isinstance(at, str) or _SHAPE.fullmatch(at) is None:
        return None
    try:  # C-fast; the shape is checked above, so it reads only that shape (fraction cut to µs)
        return datetime.fromisoformat(at)
    except ValueError:  # a date or time that does not exist
        return None


def at_ms(at: object) -> int | None:
    """``at`` as milliseconds since the Unix epoch (what AG-UI's ``timestamp`` holds)."""
    return _ms(at) if isinstance(at, str) else None


@lru_cache(maxsize=4096)
def _ms(at: str) -> int | None:
    """Cached: a call's ``at`` is read when the thread takes it and again by its header."""
    moment = parse_at(at)
    return None if moment is None else (moment - _EPOCH) // _MS


def format_at(moment: datetime) -> str:
    """``moment`` as an ``at``: UTC, milliseconds, ``Z`` (a naive moment is taken as UTC)."""
    utc = moment.astimezone(UTC) if moment.tzinfo is not None else moment
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def at_from_ms(ms: object) -> str | None:
    """An epoch in milliseconds (JavaScript's ``Date.now()``) as an ``at``; ``None`` if not one."""
    if isinstance(ms, bool) or not isinstance(ms, int | float) or ms != ms:
        return None
    try:
        return format_at(_EPOCH + timedelta(milliseconds=ms))
    except (OverflowError, ValueError):
        return None


def at_from_text(text: object) -> str | None:
    """An RFC 3339 / ISO 8601 time with a zone (``Z`` or an offset) as an ``at`` in UTC.

    ``None`` for anything else, a time without a zone included: which zone it
    meant cannot be known, and a guess would be a wrong time said as fact. A
    real time already in the contract's form passes unchanged (its precision
    kept); any other is converted, to the millisecond.
    """
    if not isinstance(text, str) or len(text) > 64:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:  # not a time, or one that does not exist (month 13)
        return None
    if moment.tzinfo is None:
        return None
    return text if _SHAPE.fullmatch(text) else format_at(moment)


def span_ms(start: object, end: object) -> int | None:
    """Milliseconds from ``start`` to ``end``; ``None`` if either is unreadable or ends first."""
    first, last = at_ms(start), at_ms(end)
    if first is None or last is None or last < first:
        return None
    return last - first


@dataclass(slots=True)
class TimeSpan:
    """The earliest and the latest ``at`` seen so far (by time, not by string order).

    Why not the first and the last seen: observations need not come in time
    order (a sub-agent's, a batch sent late); why not string order:
    ``…:20Z`` sorts after ``…:20.5Z``. Equal when they hold the same span
    (a thread compares equal to its replay).
    """

    first: int | None = None
    last: int | None = None

    def see(self, at: object) -> None:
        """Widen the span to ``at``, if it is a time (anything else changes nothing)."""
        if at is None or not isinstance(at, str):
            return
        ms = at_ms(at)
        if ms is None:
            return
        if self.first is None or ms < self.first:
            self.first = ms
        if self.last is None or ms > self.last:
            self.last = ms

    @property
    def ms(self) -> int | None:
        """Milliseconds from the earliest to the latest; ``None`` before any time was seen."""
        return None if self.first is None or self.last is None else self.last - self.first
