"""Reading an observation's ``at``: one parse, used by every surface and the AG-UI mapping.

``at`` is validated on the wire as an RFC 3339 UTC string (``contract.types.
Timestamp``), but a pattern cannot tell a real date from ``2026-02-31``, and
an observation built in Python is not validated at all. So every reader goes
through ``parse_at``, which answers ``None`` for anything it cannot read: a
time that cannot be read is absent, never guessed, never an exception.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final

__all__ = ["at_ms", "parse_at", "span_ms"]

_SHAPE: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")


def parse_at(at: object) -> datetime | None:
    """The moment ``at`` names (aware, UTC), or ``None`` when absent or unreadable."""
    if not isinstance(at, str) or _SHAPE.fullmatch(at) is None:
        return None
    head, _, fraction = at[:-1].partition(".")
    try:
        moment = datetime.strptime(head, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    except ValueError:  # a date or time that does not exist
        return None
    micro = int((fraction + "000000")[:6]) if fraction else 0
    return moment.replace(microsecond=micro)


def at_ms(at: object) -> int | None:
    """``at`` as milliseconds since the Unix epoch (what AG-UI's ``timestamp`` holds)."""
    moment = parse_at(at)
    if moment is None:
        return None
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def span_ms(start: object, end: object) -> int | None:
    """Milliseconds from ``start`` to ``end``; ``None`` if either is unreadable or ends first."""
    first, last = at_ms(start), at_ms(end)
    if first is None or last is None or last < first:
        return None
    return last - first
