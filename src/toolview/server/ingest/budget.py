"""The bytes of request bodies the server holds at once, across all requests.

Why: each body is capped (``--body-limit``), but a body is read whole before
it waits for a worker to parse it, so 1,024 connections each posting 16 MiB
held 16 GiB. A request takes its body's bytes from one shared budget as they
arrive and gives them back when it ends; past the budget the body is refused
(``ServerBusy``: a 503 with ``Retry-After``, which ``toolview run --to``
honours) rather than waited for: bodies waiting for each other's bytes would
never finish. Used on the event loop only, so no lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["BodyBudget", "Hold", "ServerBusy"]


class ServerBusy(RuntimeError):
    """The bodies of requests under way already hold the whole budget."""


class BodyBudget:
    """``total`` bytes, shared by the bodies being read or parsed."""

    def __init__(self, total: int) -> None:
        if total < 1:
            raise ValueError(f"a body budget is at least 1 byte, not {total}")
        self.total = total
        self.held = 0

    @contextmanager
    def hold(self) -> Iterator[Hold]:
        """A request's share: what it takes is given back when the block ends."""
        share = Hold(self)
        try:
            yield share
        finally:
            self.held -= share.taken

    def _take(self, size: int) -> None:
        if self.held + size > self.total:
            raise ServerBusy(
                f"the server is busy reading other requests' bodies ({self.total} bytes "
                "at once): retry later"
            )
        self.held += size


class Hold:
    """One request's bytes of a ``BodyBudget``."""

    def __init__(self, budget: BodyBudget) -> None:
        self.budget = budget
        self.taken = 0

    def take(self, size: int) -> None:
        """``size`` more bytes, or ``ServerBusy`` (nothing taken) if the budget has no room."""
        self.budget._take(size)
        self.taken += size
