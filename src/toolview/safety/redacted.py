"""Strings a redaction already made: the one pipeline of ``toolview share``.

Why: a share redacts every observation first (its review must say what it
hid, and where), then draws the page from what it redacted, and every
surface redacts what it draws. Redaction is idempotent (a mark is never
taken for a secret), so the surface's second scan of the very string the
review returned finds nothing and changes nothing: on a 5,000-call session
it was most of a second of CPU. Inside :func:`trusting`, ``redact``,
``redact_json`` and ``redact_styled`` take a string the open ``Trusted``
holds as it is.

Why by identity and not by value or a flag: only the exact object a
redaction returned is trusted. Anything made from it — a slice (a window of
it), a join, a decoded JSON value, its neutralized terminal text — is
another object and is scanned, so what a surface derives (and could turn
into a secret: an escape decoded) is still redacted. Each held string is
held by the ``Trusted`` too (its id cannot be reused), within a budget of
characters: past it the oldest are forgotten, and merely scanned again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final

__all__ = ["TRUST_BUDGET", "Trusted", "is_redacted", "trusting"]

TRUST_BUDGET: Final = 32 * 1024 * 1024
"""Characters of redacted strings held at once (a share's calls still open fit)."""


class Trusted:
    """Strings a redaction returned, by identity, up to ``budget`` characters."""

    def __init__(self, budget: int = TRUST_BUDGET) -> None:
        self.budget = budget
        self._by_id: dict[int, str] = {}
        self._order: deque[str] = deque()
        self._chars = 0

    def keep(self, redacted: str) -> str:
        """``redacted`` (exactly what a redaction returned), held as trusted; returned."""
        if self._by_id.get(id(redacted)) is redacted or len(redacted) > self.budget:
            return redacted
        self._by_id[id(redacted)] = redacted
        self._order.append(redacted)
        self._chars += len(redacted)
        while self._chars > self.budget:
            old = self._order.popleft()
            del self._by_id[id(old)]
            self._chars -= len(old)
        return redacted

    def holds(self, text: str) -> bool:
        """Whether ``text`` is (this very object) a string held as redacted."""
        return self._by_id.get(id(text)) is text


_OPEN: ContextVar[Trusted | None] = ContextVar("toolview_redacted", default=None)


@contextmanager
def trusting(trusted: Trusted) -> Iterator[None]:
    """Redaction takes what ``trusted`` holds as it is, inside the block."""
    token = _OPEN.set(trusted)
    try:
        yield
    finally:
        _OPEN.reset(token)


def is_redacted(text: str) -> bool:
    """Whether ``text`` is a string the open :func:`trusting` holds (one read outside it)."""
    trusted = _OPEN.get()
    return trusted is not None and trusted.holds(text)
