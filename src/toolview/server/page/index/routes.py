"""The index: every thread newest first, as a page (``/``), JSON and a live SSE stream.

The page is drawn here (no script needed to read it); ``static/index.js``
follows ``GET /api/threads/follow`` and redraws the rows as text when the
listing changes (a new thread, more calls, a call running or failed). The
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

from toolview.safety import escape_html
from toolview.server.live.streams import limited_stream
from toolview.server.page.index.directory import POLL, SharedListing
from toolview.server.page.shell import document
from toolview.server.state import server_state

__all__ = ["index_html", "routes", "time_html"]


def time_html(moment: object) -> str:
    """A ``<time>`` saying the absolute UTC time (the viewer's script may say it relatively)."""
    text = escape_html(str(moment))
    shown = text.replace("T", " ", 1).removesuffix("Z")[:19] + " UTC"
    return f'<time datetime="{text}" title="{text}">{shown}</time>'


def index_html(threads: list[dict[str, object]]) -> str:
    """The index's table of threads (or a line saying there are none)."""
    if not threads:
        return '<p class="tv-empty">No threads yet.</p>'
    rows = "".join(_row(t) for t in threads)
    head = (
        '<thead><tr><th scope="col">Thread</th><th scope="col">Started</th>'
        '<th scope="col">Last activity</th><th scope="col">Calls</th>'
        '<th scope="col">Running</th><th scope="col">Failed</th></tr></thead>'
    )
    return f'<table class="tv-index">{head}<tbody>{rows}</tbody></table>'


def _row(thread: dict[str, object]) -> str:
    safe_id = escape_html(str(thread["id"]))
    title = escape_html(str(thread["title"]))
    return (
        f'<tr data-thread="{safe_id}"><td><a href="/threads/{safe_id}">{title}</a></td>'
        f"<td>{time_html(thread['startedAt'])}</td><td>{time_html(thread['lastActivity'])}</td>"
        f'<td class="tv-num">{thread["calls"]}</td><td class="tv-num">{thread["running"]}</td>'
        f'<td class="tv-num">{thread["failed"]}</td></tr>'
    )


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
        '<main class="tv-page"><h1>toolview</h1><h2 id="tv-threads-title">Threads</h2>'
        f'<div id="tv-index" aria-labelledby="tv-threads-title">{index_html(threads)}</div></main>'
    )


async def _index(request: Request) -> Response:
    return HTMLResponse(document("threads", await index_page(request), scripts=("index.js",)))


routes = [
    Route("/", _index, methods=["GET"]),
    Route("/api/threads/follow", follow_threads, methods=["GET"]),
]
