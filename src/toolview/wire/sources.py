"""Read positions kept in the log with the observations read from there.

Why in the log and in the same atomic write: a server that ingests a growing
file (``serve --watch``) and is killed between storing a batch and storing
how far it read would, on restart, read the batch again (a duplicate) or skip
it (a gap). Kept in one write — SQLite's transaction, Redis's ``MULTI``/
``EXEC`` — "stored" and "read up to here" are one fact.

The move is a compare-and-set: it names the position it starts from
(``before``, as last read from the log) and the one it ends at (``after``).
A log whose stored position is not ``before`` — another server sharing the
log moved it — stores nothing and raises ``PositionMoved``; the reader then
starts again from what the log holds. The position itself is opaque bytes:
what a position means (a byte offset, a file's identity) is the reader's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import msgspec

from toolview.contract import Observation
from toolview.wire.log import ObservationLog

__all__ = ["PositionMoved", "PositionedLog", "SourceMove"]


class PositionMoved(RuntimeError):
    """The source's stored position was not the move's ``before``: nothing was stored."""


class SourceMove(msgspec.Struct, frozen=True):
    """A source's read position, from ``before`` (``None``: never read) to ``after``."""

    source: str
    before: bytes | None
    after: bytes

    def check(self, stored: bytes | None) -> None:
        """Raise ``PositionMoved`` unless ``stored`` is where this move starts."""
        if stored != self.before:
            raise PositionMoved(f"the read position of {self.source!r} moved meanwhile")


@runtime_checkable
class PositionedLog(ObservationLog, Protocol):
    """A log that also keeps read positions (both backends are)."""

    async def position(self, source: str) -> bytes | None:
        """The stored read position of ``source``, or ``None`` if it was never read."""
        ...

    async def append_from(
        self, thread_id: str, observations: Sequence[Observation], move: SourceMove
    ) -> list[int]:
        """``append`` and move the source's position in the same atomic write.

        An empty batch only moves the position (lines that made no observation).
        ``PositionMoved`` (nothing stored) when the position is not ``move.before``.
        """
        ...
