"""The web page: threads listed, a thread rendered server-side by the html surface.

The page follows its thread live with a small served script (``static/live.js``,
no inline script: the CSP forbids it). Completed calls are fetched as
fragments rendered here (``/api/threads/{id}/call?id={callId}``: the id is a
query parameter, so no path normalisation can turn a call id ``..`` into
another resource), never rendered in the browser, so the page and a reload
always agree; a plain message is drawn by the script as text, in the markup
``message_html`` makes. A call's fragment says which element it is
(``x-toolview-element``) and the script takes nothing else.

Every route reads its thread through the server's projections (``projection``):
a request reads only the records not read before, not the whole thread.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Final, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from toolview.render.clean import clean_field
from toolview.render.html import (
    FRAGMENT_CSS,
    call_element_id,
    render_call_html,
    render_thread_html,
)
from toolview.render.html.receipt import summary_html
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.summary import thread_summary
from toolview.render.thread import CallEntry, Thread
from toolview.render.view import view_call
from toolview.safety import escape_html, redact
from toolview.safety.opaque import crossing_id
from toolview.server.api import error, thread_or_404
from toolview.server.offload import in_worker
from toolview.server.state import server_state

__all__ = [
    "ELEMENT_HEADER",
    "find_call",
    "pending_calls",
    "pending_ids",
    "rendered",
    "routes",
    "status_line",
]

T = TypeVar("T")

STATIC: Final = Path(__file__).parent / "static"
ELEMENT_HEADER: Final = "x-toolview-element"
"""The element id a call fragment holds: the live page accepts that element only."""
_NAME_CHARS: Final = 100


async def rendered(request: Request, thread_id: str, render: Callable[[Thread, int], T]) -> T:
    """``render(thread, seq)`` of the thread's projection, in a worker thread.

    Why: rendering a big thread took minutes on the event loop, and every
    client waited. The projection's lock is held meanwhile, so no request
    extends the thread while the worker reads it.
    """
    state = server_state(request)
    projection = await state.projections.current(thread_id)
    async with projection.lock:
        job = partial(render, projection.thread, projection.seq)
        return await in_worker(state.workers, job)


def pending_calls(thread: Thread) -> list[CallEntry]:
    """The calls still waiting for their result."""
    return [e for e in thread.calls() if view_call(e, thread).state == "pending"]


def pending_ids(pending: list[CallEntry]) -> str:
    """``{element id: toolCallId}`` of pending calls, as JSON for the live script.

    The script needs a call's id to fetch its fragment when the run ends. Each
    id is the one the frames carry (``crossing_id``): an id that redaction would
    change is its opaque id, never spelled out in the DOM.
    """
    ids = {call_element_id(e.tool_call_id): crossing_id(e.tool_call_id, redact) for e in pending}
    return msgspec.json.encode(ids).decode()


def status_line(thread: Thread, pending: list[CallEntry] | None = None) -> str:
    """ "running <tool>" while calls run, else how many calls the thread holds.

    Tool names are redacted, cleaned and kept to one line, as in a call's header.
    """
    calls = pending_calls(thread) if pending is None else pending
    running = [clean_field(redact(e.tool_name), _NAME_CHARS) for e in calls]
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
    body = await rendered(request, thread_id, partial(_page_body, thread_id))
    return HTMLResponse(document(thread_id, body, live=True))


def _page_body(thread_id: str, thread: Thread, seq: int) -> str:
    pending = pending_calls(thread)
    safe_id = escape_html(thread_id)
    return (
        f'<main class="tv-page"><nav><a href="/">All threads</a></nav><h1>{safe_id}</h1>'
        f'<p id="tv-status" class="tv-statusline" role="status" aria-live="polite">'
        f"{escape_html(status_line(thread, pending))}</p>"
        f'<div id="tv-live" data-thread="{safe_id}" data-seq="{seq}" '
        f'data-pending="{escape_html(pending_ids(pending))}" '
        f'data-max-lines="{DEFAULT_LIMITS.max_lines}" data-max-chars="{DEFAULT_LIMITS.max_chars}">'
        f"{render_thread_html(thread)}</div></main>"
    )


def find_call(thread: Thread, call_id: str, crossed: Callable[[str], str]) -> CallEntry | None:
    """The call the browser names ``call_id``: by the id it was given (``crossed``).

    An id holding a secret crossed to the browser as its opaque id, so it is
    looked up by that, never by the raw id (which the browser never saw).
    """
    return next((e for e in thread.calls() if crossed(e.tool_call_id) == call_id), None)


async def call_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/call?id={callId}``: one call, rendered here.

    The response names the one element it holds (``x-toolview-element``).
    """
    call_id = request.query_params.get("id")
    if not call_id:
        return error(400, "id (the call's toolCallId) is required: /api/threads/{id}/call?id=…")
    return await _call_response(request, call_id, json_errors=True)


async def call_fragment_by_path(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/html``: the same, the id in the path.

    Kept for API clients; a browser would normalise a call id ``.`` or ``..``
    away (the live page uses ``call?id=``).
    """
    return await _call_response(request, request.path_params["call_id"], json_errors=False)


async def _call_response(request: Request, call_id: str, *, json_errors: bool) -> Response:
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    id_of = server_state(request).redactor.id

    def render(thread: Thread, _: int) -> tuple[str, str] | None:
        entry = find_call(thread, call_id, id_of)
        return None if entry is None else (render_call_html(entry, thread), entry.tool_call_id)

    found = await rendered(request, thread_id, render)
    if found is None:
        return error(404, "no such call in this thread") if json_errors else HTMLResponse("", 404)
    html, tool_call_id = found
    return HTMLResponse(html, headers={ELEMENT_HEADER: call_element_id(tool_call_id)})


async def thread_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/html``: the whole thread as one fragment."""
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    html, seq = await rendered(
        request, thread_id, lambda thread, seq: (render_thread_html(thread), seq)
    )
    # the seq it holds, so the live page skips the messages it already shows
    return HTMLResponse(html, headers={"x-toolview-seq": str(seq)})


async def summary_fragment(request: Request) -> Response:
    """``GET /threads/{id}/summary``: the thread's summary footer (empty below two calls).

    The live page refreshes it after calls change instead of the whole thread.
    """
    thread_id = await thread_or_404(request)
    if isinstance(thread_id, Response):
        return thread_id
    return HTMLResponse(await rendered(request, thread_id, lambda thread, _: _summary(thread)))


def _summary(thread: Thread) -> str:
    summary = thread_summary(thread)
    return "" if summary is None else summary_html(summary)


async def fragments_css(request: Request) -> Response:
    """The html surface's stylesheet, served as a file (the CSP allows no inline style)."""
    return Response(FRAGMENT_CSS, media_type="text/css")


routes = [
    Route("/", index, methods=["GET"]),
    Route("/threads/{thread_id}", thread_page, methods=["GET"]),
    Route("/threads/{thread_id}/summary", summary_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/html", thread_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/call", call_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/calls/{call_id}/html", call_fragment_by_path, methods=["GET"]),
    Route("/static/fragments.css", fragments_css, methods=["GET"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
