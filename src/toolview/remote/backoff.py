"""When to try a failed POST again: capped exponential backoff, and the server's ``Retry-After``.

Why sans-IO: the schedule decides whether a publisher rides out a server
restart or hammers it, so it is a pure function of the attempt number, the
server's answer and a random draw — tested without a clock or a socket. The
background sender (``remote.sender``) only waits as it says.

* Without ``Retry-After`` the n-th delay is drawn from ``[c/2, c]`` where
  ``c = min(cap, base · 2ⁿ)`` ("equal jitter": many publishers cut by one
  restart do not come back in lock-step, and none retries in a busy loop).
* ``Retry-After`` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) is
  honoured: never earlier than asked, plus up to 10 % jitter — but capped, so
  a server asking for an hour cannot park the publisher past its deadline —
  and never earlier than the backoff either: a server (or a proxy) answering
  ``Retry-After: 0`` every time would otherwise get a busy loop.
  A value that parses as neither falls back to the backoff.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Final

__all__ = ["BASE_DELAY", "MAX_DELAY", "MAX_RETRY_AFTER", "Backoff", "parse_retry_after"]

BASE_DELAY: Final = 0.1  # seconds before the first retry
MAX_DELAY: Final = 5.0  # the backoff never waits longer (a restart is noticed within it)
MAX_RETRY_AFTER: Final = 30.0  # the most a server's Retry-After can make us wait


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value; None if absent or malformed.

    A date in the past means "now" (0). Capping is the schedule's job, not
    the parser's, so a test can see what the server asked.
    """
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(int(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000": UTC by RFC 5322
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class Backoff:
    """The delays between attempts of one failing stretch; ``reset()`` once one succeeds."""

    def __init__(
        self,
        base: float = BASE_DELAY,
        cap: float = MAX_DELAY,
        *,
        retry_after_cap: float = MAX_RETRY_AFTER,
        draw: Callable[[], float] = random.random,
    ) -> None:
        if base <= 0 or cap < base or retry_after_cap < 0:
            raise ValueError("want 0 < base <= cap and retry_after_cap >= 0")
        self.base, self.cap, self.retry_after_cap = base, cap, retry_after_cap
        self._draw = draw  # uniform in [0, 1): injectable so a test pins the jitter
        self.attempts = 0  # failures since the last success

    def next_delay(self, retry_after: float | None = None) -> float:
        """Seconds to wait before the next attempt, after one more failure."""
        ceiling = min(self.cap, self.base * 2.0 ** min(self.attempts, 64))
        self.attempts += 1
        backoff = ceiling / 2 * (1 + self._draw())
        if retry_after is None:
            return backoff
        asked = min(max(retry_after, 0.0), self.retry_after_cap)
        return max(asked * (1 + 0.1 * self._draw()), backoff)

    def reset(self) -> None:
        """A success: the next failure starts again from ``base``."""
        self.attempts = 0
