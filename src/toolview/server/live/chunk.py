"""``Chunk``: frames encoded once, to be written to every follower of a hub in one write."""

from __future__ import annotations

from dataclasses import dataclass

from toolview.server.live.batches import encode_event
from toolview.server.live.sent_tail import SentRow, tail_rows
from toolview.wire.follow import Frame

__all__ = ["Chunk"]


@dataclass(frozen=True)
class Chunk:
    """Frames encoded once to be written in one write; ``seq``: where a resume after them starts.

    ``size`` and ``rows`` are what the sent tail counts (``server.live.sent_tail``),
    also made once for every member that writes the chunk.
    """

    data: bytes
    frames: list[Frame]
    seq: int
    size: int
    rows: list[SentRow]

    @classmethod
    def of(cls, frames: list[Frame], seq: int, mode: str) -> Chunk:
        """``frames`` as SSE events in one ``bytes``."""
        size = sum(len(frame.data) for frame in frames)
        return cls(b"".join(map(encode_event, frames)), frames, seq, size, tail_rows(mode, frames))

    @classmethod
    def events(cls, data: bytes, seq: int) -> Chunk:
        """SSE events already encoded (AG-UI's): no follow frames for the sent tail to count."""
        return cls(data, [], seq, 0, [])
