"""The index: every thread newest first, as a page (``/``), JSON and a live SSE stream.

The page's first view is drawn here (no script needed to read it:
``index.table``); ``static/index.js`` follows ``GET /api/threads/follow``,
keeps the whole listing as data and draws one page of it — filtered, sorted,
grouped by project — as text when the listing or a control changes. The
stream polls the server's ``Directory`` (``server.page.index.directory``) once a second
and sends the listing only when it changed; followers share one listing a
second however many they are.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
from sse_starlette import ServerSentEvent
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.server.live.streams import limited_stream
from toolview.server.page.index.directory import POLL, SharedListing
from toolview.server.page.index.table import controls_html, index_html, index_keys_html
from toolview.server.page.shell import document
from toolview.server.state import server_state

__all__ = ["routes"]


async def follow_threads(request: Request) -> Response:
    """``GET /api/threads/follow``: the listing now, then again whenever it changes (SSE)."""
    shared = server_state(request).listing
    return limited_stream(request, _changes(shared))


async def _changes(shared: SharedListing) -> AsyncIterator[ServerSentEvent]:
    sent = b""
    while True:
        body = await shared.encoded()
        if body != sent:
            sent = body
            yield ServerSentEvent(data=body.decode(), event="threads")
        await asyncio.sleep(POLL)


async def index_page(request: Request) -> str:
    """The body of ``/``: the table, followed live by ``static/index.js``."""
    body = await server_state(request).listing.encoded(fresh=True)
    threads = msgspec.json.decode(body)["threads"]
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
