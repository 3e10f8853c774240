"""How a follow stream reads and writes: batches sized by bytes, frames encoded by hand.

Shared by every follow loop: a follower catching up (``server.live.follower``), a
thread's hub (``server.live.hub_loop``) and the live AG-UI stream.
"""

from __future__ import annotations

from typing import Final

from sse_starlette import ServerSentEvent

from toolview.wire.follow import Frame

__all__ = ["BATCH", "BATCH_BYTES", "FIRST_BATCH", "encode_event", "next_limit"]

BATCH: Final = 256
BATCH_BYTES: Final = 256 * 1024
FIRST_BATCH: Final = 16


def next_limit(limit: int, size: int, count: int) -> int:
    """How many records to read next so one batch stays near ``BATCH_BYTES``.

    Why: a follower that stops reading holds its current batch until it is
    dropped; sized by count alone, a batch of large observations (16 KiB each:
    4 MiB) times many stalled followers is what made the server's memory grow.
    """
    if size == 0:
        return limit
    return max(1, min(BATCH, BATCH_BYTES * count // size))


def encode_event(frame: Frame) -> bytes:
    """The SSE event of one frame, byte for byte what ``ServerSentEvent`` writes.

    Why by hand: a follower's frames of one batch go out in ONE write, and
    sse-starlette's per-event object and ``StringIO`` cost more than the frame
    itself. Data with a line break (never JSON from msgspec) takes its path.
    """
    data = frame.data
    if 10 in data or 13 in data:  # a line feed or a carriage return (a byte search)
        return ServerSentEvent(data=data.decode(), id=str(frame.seq)).encode()
    return b"id: %d\r\ndata: %s\r\n\r\n" % (frame.seq, data)
