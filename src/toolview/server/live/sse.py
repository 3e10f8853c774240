"""``GET /api/threads/{id}/follow``: the thread over SSE, resumable by seq.

Each followed thread has ONE hub per mode in this process (``server.live.hub``):
it reads the log, redacts and encodes each frame once, and every follower of
the thread writes the same bytes. A follower that starts behind (a
``Last-Event-ID``, a new follower of a long thread) catches up from the log
on its own first, then joins (``server.live.follower``). A slow client never blocks
the producer (who only appends), the hub or other followers: one that falls
too far behind leaves the hub and catches up alone; one that stops reading
for ``send_timeout`` is dropped, and resumes with ``Last-Event-ID``. One
client address holds at most ``follow_limit`` streams at once (more get
``429``): ``server.live.streams``, shared with the live AG-UI stream.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.server.errors import ApiError
from toolview.server.live.batches import encode_event
from toolview.server.live.follower import follow_chunks
from toolview.server.live.hub import Chunk
from toolview.server.live.resume import last_event_id, parse_seq
from toolview.server.live.streams import limited_stream
from toolview.server.params import thread_or_404
from toolview.server.state import ServerState, server_state

__all__ = ["encode_event", "routes"]


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
    chunks = follow_chunks(state.hubs, thread_id, after, "live" if mode == "live" else "elide")
    return limited_stream(request, _events(state, thread_id, mode, chunks))


async def _events(
    state: ServerState, thread_id: str, mode: str, chunks: AsyncGenerator[Chunk, None]
) -> AsyncIterator[bytes]:
    async with aclosing(chunks):  # closed with the stream, not when collected: it holds a hub
        async for chunk in chunks:
            yield chunk.data
            # the write returned: the frames crossed (the sent tail counts only those)
            state.sent.record_counted(thread_id, mode, len(chunk.frames), chunk.size, chunk.rows)


routes = [Route("/api/threads/{thread_id}/follow", follow, methods=["GET"])]
