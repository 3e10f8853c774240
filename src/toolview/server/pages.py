"""The web page: threads listed, a thread rendered server-side by the html surface.

The page follows its thread live with a small served script (``static/live.js``,
no inline script: the CSP forbids it). Completed calls are fetched as
fragments rendered here (``/api/threads/{id}/calls/{callId}/html``), never
rendered in the browser, so the page and a reload always agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from toolview.render.html import FRAGMENT_CSS, render_call_html, render_thread_html
from toolview.render.thread import Thread
from toolview.render.view import view_call
from toolview.safety import escape_html
from toolview.server.api import thread_or_404
from toolview.server.state import server_state
from toolview.wire.log import Replay

__all__ = ["routes", "status_line"]

STATIC: Final = Path(__file__).parent / "static"


async def load_thread(request: Request, thread_id: str) -> tuple[Thread, int]:
    """The whole thread from the log, and the seq it was read up to."""
    replay = Replay(server_state(request).log, thread_id, 0)
    thread = Thread()
    while batch := await replay.next_batch(1000):
        for item in batch:
            thread.add(item.observation)
    return thread, replay.position


def status_line(thread: Thread) -> str:
    """ "running <tool>" while calls run, else how many calls the thread holds."""
    running = [e.tool_name for e in thread.calls() if view_call(e, thread).state == "pending"]
    if running:
        return "running " + ", ".join(running)
    count = len(thread.calls())
    return f"{count} call{'' if count == 1 else 's'}, none running"


def document(title: str, body: str, *, live: bool = False) -> str:
    """A page around ``body`` (safe markup); ``title`` is escaped here."""
    script = '<script src="/static/live.js" defer></script>\n' if live else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape_html(title)} · toolview</title>\n"
        '<link rel="stylesheet" href="/static/fragments.css">\n'
        '<link rel="stylesheet" href="/static/page.css">\n'
        f"{script}</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


async def index(request: Request) -> Response:
    """``GET /``: every thread, linked."""
    threads = await server_state(request).log.threads()
    items = "".join(
        f'<li><a href="/threads/{escape_html(t.id)}">{escape_html(t.id)}</a>'
        f' <span class="tv-meta">{t.last_seq} observations</span></li>'
        for t in threads
    )
    listing = f'<ul class="tv-threads">{items}</ul>' if items else "<p>No threads yet.</p>"
    body = f'<main class="tv-page"><h1>toolview</h1><h2>Threads</h2>{listing}</main>'
    return HTMLResponse(document("threads", body))


async def thread_page(request: Request) -> Response:
    """``GET /threads/{id}``: the thread, rendered here, then followed live."""
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return HTMLResponse(document("not found", "<main><h1>No such thread</h1></main>"), 404)
    thread, seq = await load_thread(request, thread_id)
    safe_id = escape_html(thread_id)
    body = (
        f'<main class="tv-page"><nav><a href="/">All threads</a></nav><h1>{safe_id}</h1>'
        f'<p id="tv-status" class="tv-statusline" role="status" aria-live="polite">'
        f"{escape_html(status_line(thread))}</p>"
        f'<div id="tv-live" data-thread="{safe_id}" data-seq="{seq}">'
        f"{render_thread_html(thread)}</div></main>"
    )
    return HTMLResponse(document(thread_id, body, live=True))


async def call_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/html``: one call, rendered here."""
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    thread, _ = await load_thread(request, thread_id)
    call_id = request.path_params["call_id"]
    entry = next((e for e in thread.calls() if e.tool_call_id == call_id), None)
    if entry is None:
        return HTMLResponse("", 404)
    return HTMLResponse(render_call_html(entry, thread))


async def thread_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/html``: the whole thread as one fragment."""
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    thread, _ = await load_thread(request, thread_id)
    return HTMLResponse(render_thread_html(thread))


async def fragments_css(request: Request) -> Response:
    """The html surface's stylesheet, served as a file (the CSP allows no inline style)."""
    return Response(FRAGMENT_CSS, media_type="text/css")


routes = [
    Route("/", index, methods=["GET"]),
    Route("/threads/{thread_id}", thread_page, methods=["GET"]),
    Route("/api/threads/{thread_id}/html", thread_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/calls/{call_id}/html", call_fragment, methods=["GET"]),
    Route("/static/fragments.css", fragments_css, methods=["GET"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
