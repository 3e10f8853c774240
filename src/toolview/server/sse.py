"""``GET /api/threads/{id}/follow``: the thread over SSE, resumable by seq.

The loop PULLS from the log at the client's own pace: a slow client never
blocks the producer (who only appends) or other followers, and the server
holds at most one batch per follower. A client that stops reading for
``send_timeout`` is dropped; it resumes with ``Last-Event-ID``. One client
address holds at most ``follow_limit`` streams at once (more get ``429``):
``server.streams``, shared with the live AG-UI stream.

What 500 followers of one thread share (measured with ``bench/fanout.py``:
redaction, log reads and per-event writes were ~80% of the server's CPU):
identical reads in flight (``state.SharedReads``), each observation's
redaction and encoding (the redactor's memo, ``wire.memo``), and each
follower writes a batch of frames in one send. Every follower still gets the
bytes it would get alone.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from sse_starlette import ServerSentEvent
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.server.api import thread_or_404
from toolview.server.errors import ApiError
from toolview.server.resume import last_event_id, parse_seq
from toolview.server.state import ServerState, server_state
from toolview.server.streams import FIRST_BATCH, limited_stream, next_limit
from toolview.wire.follow import Follower, Frame, Mode
from toolview.wire.log import Replay

__all__ = ["encode_event", "follow_batches", "routes"]


async def follow(request: Request) -> Response:
    """Open the stream after ``Last-Event-ID`` (header, or ``lastEventId`` query)."""
    thread_id = await thread_or_404(request)
    mode = request.query_params.get("mode", "elide")
    if mode not in ("elide", "live"):
        raise ApiError(400, f"mode must be 'elide' or 'live', not {mode!r}")
    try:
        after = parse_seq(last_event_id(request))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    state = server_state(request)
    batches = follow_batches(state, thread_id, after, "live" if mode == "live" else "elide")
    return limited_stream(request, _events(state, thread_id, mode, batches))


async def _events(
    state: ServerState, thread_id: str, mode: str, batches: AsyncIterator[list[Frame]]
) -> AsyncIterator[bytes]:
    async for frames in batches:
        yield b"".join(map(encode_event, frames))
        # the write returned: the frames crossed (the sent tail counts only those)
        state.sent.record_many(thread_id, mode, frames)


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


async def follow_batches(
    state: ServerState, thread_id: str, after: int, mode: Mode
) -> AsyncIterator[list[Frame]]:
    """Every frame for one follower, a log read at a time (never an empty list), forever:
    replay from ``after``, then live."""
    replay = Replay(state.reads, thread_id, after)
    follower = Follower(mode, state.redactor)
    first = follower.start(after, await replay.running_at_start(), time.monotonic())
    if first:
        yield first
    limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
    while True:
        asked = limit
        items = await replay.next_batch(asked)
        now = time.monotonic()
        frames = [frame for item in items for frame in follower.push(item, now)]
        size = sum(len(frame.data) for frame in frames)
        frames += follower.due(now)
        if frames:
            yield frames
        if items:
            limit = next_limit(limit, size, len(items))
        if len(items) == asked:
            continue  # maybe more: read on; a short batch was the end, so wait
        deadline = follower.next_deadline()
        timeout = state.keepalive if deadline is None else deadline - time.monotonic()
        if timeout > 0:
            await state.log.wait(thread_id, replay.position, timeout)


routes = [Route("/api/threads/{thread_id}/follow", follow, methods=["GET"])]
