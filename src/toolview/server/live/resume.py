"""Where a follower resumes: a seq from ``Last-Event-ID`` or ``lastEventId``, read exactly.

Why not ``str.isdigit`` and ``int``: ``"²".isdigit()`` is true and ``int``
then raises; ``int`` of 5,000 digits raises too; and a seq of 2**63 or more
passes ``int`` but overflows the log's integer mid-stream. Each once turned a
client's bad header into a 500 or a stream that died after its 200.
"""

from __future__ import annotations

import re
from typing import Final

from starlette.requests import Request

__all__ = ["SEQ_MAX", "last_event_id", "parse_seq"]

SEQ_MAX: Final = 2**63 - 1  # the log's largest integer (SQLite, and a Redis stream id part)
_DIGITS: Final = re.compile(r"[0-9]{1,19}")  # ASCII only: [0-9] is not \d


def last_event_id(request: Request) -> str:
    """The raw resume point: the ``Last-Event-ID`` header, else the query, else ``"0"``."""
    return request.headers.get("last-event-id") or request.query_params.get("lastEventId") or "0"


def parse_seq(raw: str) -> int:
    """A seq 0…2**63-1 in ASCII digits (blanks around allowed); ``ValueError`` otherwise."""
    text = raw.strip()
    if _DIGITS.fullmatch(text) is None or int(text) > SEQ_MAX:
        raise ValueError(f"Last-Event-ID must be a seq (0 to {SEQ_MAX}), not {raw[:40]!r}")
    return int(text)
