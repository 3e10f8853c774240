"""What every endless SSE stream of the server shares: the per-client limit, batch sizing.

``/follow`` and the live ``/agui`` stream both hold a slot of the client's
follow limit, and of the server's total, for as long as they run (more get
``429``), so one client cannot exhaust the server's connections and tasks
whichever stream it opens, nor can many source addresses (a local user may
connect from any of 127.0.0.0/8). A follower
catching up pulls from the log at the client's own pace, sizing its batches
by bytes (``server.live.batches``), so a stalled client holds at most about one
batch until ``send_timeout`` drops it; a live ``/follow`` then writes what
its thread's hub encoded once (``server.live.hub``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.sse import SendTimeoutError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from toolview.server.errors import ApiError
from toolview.server.live.batches import BATCH, FIRST_BATCH, next_limit  # where they were
from toolview.server.state import ServerState, server_state

__all__ = ["BATCH", "FIRST_BATCH", "limited_stream", "next_limit"]


def limited_stream(
    request: Request, events: AsyncIterator[ServerSentEvent] | AsyncIterator[bytes]
) -> Response:
    """``events`` as SSE holding one of the client's follow slots; ``ApiError`` 429 if none is free.

    ``events`` are events, or bytes already in SSE form (several events in
    one write). ``events`` is not started when the answer is ``429``: it is raised
    before any stream exists, so it is an answer, never a cut stream.
    """
    state = server_state(request)
    client = request.client.host if request.client else "unknown"
    if state.follows[client] >= state.follow_limit:
        message = f"too many follow streams from {client} (at most {state.follow_limit})"
        raise ApiError(429, message, {"retry-after": "5"})
    if state.follows.total() >= state.follow_total:
        message = f"the server holds its most follow streams ({state.follow_total})"
        raise ApiError(429, message, {"retry-after": "5"})
    state.follows[client] += 1
    return _CountedStream(
        events,
        release=lambda: _release(state, client),
        ping=state.keepalive,
        send_timeout=state.send_timeout,
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


class _CountedStream(EventSourceResponse):
    """An SSE response that gives its client's slot back however the stream ends.

    A write that has not returned after ``send_timeout`` drops the client, as
    sse-starlette's per-write timeout does, but watched by one task per
    stream that looks every quarter of it: sse-starlette opens a cancel scope
    and a timer for EACH write, about a tenth of a follower-frame's server CPU
    once the hub made the frame (a profile under ``bench/fanout.py``). So a
    client is dropped between 1 and 1.25 ``send_timeout`` after its write
    began, not exactly at it.
    """

    def __init__(self, content: Any, *, release: Callable[[], None], **kwargs: Any) -> None:
        kwargs["data_sender_callable"] = self._watch_sends
        super().__init__(content, **kwargs)
        self._release = release
        self._sending_since: float | None = None

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        self._sending_since = time.monotonic()
        try:
            await send(message)
        finally:
            self._sending_since = None

    async def _watch_sends(self) -> None:
        """Raise ``SendTimeoutError`` (ending the stream) once a write outlasts ``send_timeout``."""
        timeout = self.send_timeout
        while timeout is not None and self.active:
            await anyio.sleep(timeout / 4)
            since = self._sending_since
            if since is not None and time.monotonic() - since > timeout:
                raise SendTimeoutError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def _release(state: ServerState, client: str) -> None:
    state.follows[client] -= 1
    if state.follows[client] <= 0:
        del state.follows[client]
