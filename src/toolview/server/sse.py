"""``GET /api/threads/{id}/follow``: the thread over SSE, resumable by seq.

The loop PULLS from the log at the client's own pace: a slow client never
blocks the producer (who only appends) or other followers, and the server
holds at most one batch per follower. A client that stops reading for
``send_timeout`` is dropped; it resumes with ``Last-Event-ID``. One client
address holds at most ``follow_limit`` streams at once (more get ``429``), so
one client cannot exhaust the server's connections and tasks.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from toolview.server.api import error, thread_or_404
from toolview.server.state import ServerState, server_state
from toolview.server.stats import SentFrame
from toolview.wire.follow import Follower, Frame, Mode
from toolview.wire.log import Replay

__all__ = ["follow_frames", "routes"]

_BATCH = 256
_BATCH_BYTES = 256 * 1024
_FIRST_BATCH = 16


def _next_limit(limit: int, size: int, count: int) -> int:
    """How many records to read next so one batch stays near ``_BATCH_BYTES``.

    Why: a follower that stops reading holds its current batch until it is
    dropped; sized by count alone, a batch of large observations (16 KiB each:
    4 MiB) times many stalled followers is what made the server's memory grow.
    """
    if size == 0:
        return limit
    return max(1, min(_BATCH, _BATCH_BYTES * count // size))


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
    client = request.client.host if request.client else "unknown"
    if state.follows[client] >= state.follow_limit:
        message = f"too many follow streams from {client} (at most {state.follow_limit})"
        return JSONResponse({"error": message}, 429, headers={"retry-after": "5"})
    state.follows[client] += 1
    frames = follow_frames(state, thread_id, int(raw), "live" if mode == "live" else "elide")
    return _CountedStream(
        _events(state, thread_id, mode, frames),
        release=lambda: _release(state, client),
        ping=state.keepalive,
        send_timeout=state.send_timeout,
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


class _CountedStream(EventSourceResponse):
    """An SSE response that gives its client's slot back however the stream ends."""

    def __init__(self, *args: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def _release(state: ServerState, client: str) -> None:
    state.follows[client] -= 1
    if state.follows[client] <= 0:
        del state.follows[client]


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
    limit = _FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
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
            limit = _next_limit(limit, size, len(items))
            continue
        deadline = follower.next_deadline()
        timeout = state.keepalive if deadline is None else deadline - time.monotonic()
        if timeout > 0:
            await state.log.wait(thread_id, replay.position, timeout)


routes = [Route("/api/threads/{thread_id}/follow", follow, methods=["GET"])]
