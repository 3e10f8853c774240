"""``GET /api/threads/{id}/follow``: the thread over SSE, resumable by seq.

The loop PULLS from the log at the client's own pace: a slow client never
blocks the producer (who only appends) or other followers, and the server
holds at most one batch per follower. A client that stops reading for
``send_timeout`` is dropped; it resumes with ``Last-Event-ID``. One client
address holds at most ``follow_limit`` streams at once (more get ``429``):
``server.streams``, shared with the live AG-UI stream.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from sse_starlette import ServerSentEvent
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.server.api import error, thread_or_404
from toolview.server.state import ServerState, server_state
from toolview.server.stats import SentFrame
from toolview.server.streams import FIRST_BATCH, limited_stream, next_limit
from toolview.wire.follow import Follower, Frame, Mode
from toolview.wire.log import Replay

__all__ = ["follow_frames", "routes"]


async def follow(request: Request) -> Response:
    """Open the stream after ``Last-Event-ID`` (header, or ``lastEventId`` query)."""
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    mode = request.query_params.get("mode", "elide")
    if mode not in ("elide", "live"):
        return error(400, f"mode must be 'elide' or 'live', not {mode!r}")
    raw = request.headers.get("last-event-id") or request.query_params.get("lastEventId") or "0"
    if not raw.strip().isdigit():
        return error(400, f"Last-Event-ID must be a seq (a whole number), not {raw!r}")
    state = server_state(request)
    frames = follow_frames(state, thread_id, int(raw), "live" if mode == "live" else "elide")
    return limited_stream(request, _events(state, thread_id, mode, frames))


async def _events(
    state: ServerState, thread_id: str, mode: str, frames: AsyncIterator[Frame]
) -> AsyncIterator[ServerSentEvent]:
    async for frame in frames:
        yield ServerSentEvent(data=frame.data.decode(), id=str(frame.seq))
        # the write returned: the frame crossed (the sent tail counts only those)
        state.sent.record(thread_id, SentFrame(frame.seq, mode, frame.op, len(frame.data)))


async def follow_frames(
    state: ServerState, thread_id: str, after: int, mode: Mode
) -> AsyncIterator[Frame]:
    """Every frame for one follower, forever: replay from ``after``, then live."""
    replay = Replay(state.log, thread_id, after)
    follower = Follower(mode, state.redactor)
    for frame in follower.start(after, await replay.running_at_start(), time.monotonic()):
        yield frame
    limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
    while True:
        items = await replay.next_batch(limit)
        now, size = time.monotonic(), 0
        for item in items:
            for frame in follower.push(item, now):
                size += len(frame.data)
                yield frame
        for frame in follower.due(now):
            yield frame
        if items:
            limit = next_limit(limit, size, len(items))
            continue
        deadline = follower.next_deadline()
        timeout = state.keepalive if deadline is None else deadline - time.monotonic()
        if timeout > 0:
            await state.log.wait(thread_id, replay.position, timeout)


routes = [Route("/api/threads/{thread_id}/follow", follow, methods=["GET"])]
