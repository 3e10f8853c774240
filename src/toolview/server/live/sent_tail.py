"""The sent tail: what actually crossed to followers, per thread, in this process.

The log says what was *emitted*; only the follow loop knows what was *sent*
(elided partials and coalesced updates never cross). A frame is counted after
its write to the socket returned, and the tail keeps the most recent ones.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from toolview.wire.follow import Frame

__all__ = ["SentFrame", "SentRow", "SentStats", "SentTail", "tail_rows"]

TAIL_LENGTH: Final = 200


@dataclass(frozen=True)
class SentFrame:
    """One frame that crossed: its id, the follow mode, what it was, its size."""

    seq: int
    mode: str
    op: str
    bytes: int


_FIELDS: Final = ("seq", "mode", "op", "bytes")
SentRow: TypeAlias = tuple[int, str, str, int]  # a SentFrame's fields


def tail_rows(mode: str, frames: Sequence[Frame]) -> list[SentRow]:
    """The rows the tail keeps for ``frames`` written in ``mode`` (the last ``TAIL_LENGTH``)."""
    return [(frame.seq, mode, frame.op, len(frame.data)) for frame in frames[-TAIL_LENGTH:]]


@dataclass
class SentStats:
    """Counts and the recent tail for one thread."""

    frames: int = 0
    bytes: int = 0
    by_mode: dict[str, int] = field(default_factory=dict)
    tail: deque[tuple[int, str, str, int]] = field(
        default_factory=lambda: deque(maxlen=TAIL_LENGTH)
    )  # SentFrame fields as tuples: one is made per frame per follower, a dataclass costs 2x

    def as_json(self) -> dict[str, object]:
        """The JSON the events endpoint shows."""
        return {
            "frames": self.frames,
            "bytes": self.bytes,
            "byMode": dict(self.by_mode),
            "tail": [dict(zip(_FIELDS, frame, strict=True)) for frame in self.tail],
        }


class SentTail:
    """``SentStats`` per thread id."""

    def __init__(self) -> None:
        self._threads: dict[str, SentStats] = {}

    def record(self, thread_id: str, frame: SentFrame) -> None:
        """Count one frame that was written to a follower."""
        stats = self._threads.setdefault(thread_id, SentStats())
        stats.frames += 1
        stats.bytes += frame.bytes
        stats.by_mode[frame.mode] = stats.by_mode.get(frame.mode, 0) + 1
        stats.tail.append((frame.seq, frame.mode, frame.op, frame.bytes))

    def record_counted(
        self, thread_id: str, mode: str, count: int, size: int, tail: Sequence[SentRow]
    ) -> None:
        """Count ``count`` frames of ``size`` bytes written in one write, ``tail`` their rows.

        Why: a hub's chunk is written to every member; its rows and size are
        made once (``tail_rows``), not once per member.
        """
        stats = self._threads.get(thread_id)
        if stats is None:
            stats = self._threads[thread_id] = SentStats()
        stats.frames += count
        stats.bytes += size
        stats.by_mode[mode] = stats.by_mode.get(mode, 0) + count
        stats.tail.extend(tail)

    def get(self, thread_id: str) -> SentStats:
        """The stats of one thread (empty if nothing was sent)."""
        return self._threads.get(thread_id) or SentStats()
