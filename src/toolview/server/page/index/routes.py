"""The index: every thread newest first, as a page (``/``), JSON and a live SSE stream.

The page's first view is drawn here (no script needed to read it:
``index.table``); ``static/index.js`` asks ``GET /api/threads?offset=…`` for
the page it shows (filtered and sorted on the server, ``index.paging``) and
groups it by project, as text. It follows ``GET /api/threads/follow?signal``:
a small ``changed`` event, not the listing (megabytes at 10,000 sessions),
whenever the listing changes, on which it asks for its page again. Without
``signal`` the stream sends the whole listing (``threads`` events). The
stream polls the server's ``Directory`` (``server.page.index.directory``) once a second
and sends the listing only when it changed; followers share one listing a
second however many they are.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from sse_starlette import ServerSentEvent
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.server.live.streams import limited_stream
from toolview.server.page.index.shared import POLL, SharedListing
from toolview.server.page.index.table import controls_html, index_html, index_keys_html
from toolview.server.page.shell import document
from toolview.server.state import server_state

__all__ = ["routes"]


async def follow_threads(request: Request) -> Response:
    """``GET /api/threads/follow``: the listing now, then again whenever it changes (SSE)."""
    shared = server_state(request).listing
    return limited_stream(request, _changes(shared, "signal" in request.query_params))


async def _changes(shared: SharedListing, signal: bool) -> AsyncIterator[ServerSentEvent]:
    """The listing (or, ``signal``, only its length) each time it differs from the last sent."""
    sent = b""
    while True:
        body = await shared.encoded()
        if body != sent:
            sent = body
            if signal:
                count = len(await shared.threads())
                yield ServerSentEvent(data=f'{{"threads": {count}}}', event="changed")
            else:
                yield ServerSentEvent(data=body.decode(), event="threads")
        await asyncio.sleep(POLL)


async def index_page(request: Request) -> str:
    """The body of ``/``: the table, followed live by ``static/index.js``."""
    threads = await server_state(request).listing.threads(fresh=True)
    return (
        '<main class="tv-page tv-wide"><h1>toolview</h1>'
        f'{controls_html()}<h2 id="tv-threads-title">Sessions</h2>'
        f'<div id="tv-index" aria-labelledby="tv-threads-title">{index_html(threads)}</div>'
        f"{index_keys_html()}</main>"
    )


async def _index(request: Request) -> Response:
    return HTMLResponse(document("threads", await index_page(request), scripts=("index.js",)))


routes = [
    Route("/", _index, methods=["GET"]),
    Route("/api/threads/follow", follow_threads, methods=["GET"]),
]
