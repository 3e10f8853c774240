"""The web page: threads listed, a thread rendered server-side by the html surface.

The page follows its thread live with a small served script (``static/live.js``,
no inline script: the CSP forbids it), which fetches calls as fragments
(``server.fragments``) and draws a plain message as text, in the markup
``message_html`` makes.
"""

from __future__ import annotations

from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from toolview.contract import CallEntry, Thread
from toolview.render.clean import clean_field
from toolview.render.html import FRAGMENT_CSS, call_element_id
from toolview.render.limits import DEFAULT_LIMITS
from toolview.safety import escape_html, redact
from toolview.safety.opaque import crossing_id
from toolview.server import cross_search, fragments, index, search, window_routes
from toolview.server.api import THREAD_ID, thread_or_404
from toolview.server.call_data import routes as call_data_routes
from toolview.server.counts_line import counts_html
from toolview.server.errors import ApiError
from toolview.server.fragments import drawn_thread
from toolview.server.pieces import Drawn
from toolview.server.shell import STATIC, document
from toolview.server.toolbar import toolbar_html
from toolview.server.window import PAGE_CALLS, CallWindow, load_more

__all__ = [
    "document",
    "pending_calls",
    "pending_ids",
    "routes",
    "status_line",
    "status_words",
]

_NAME_CHARS: Final = 100


def pending_calls(thread: Thread) -> list[CallEntry]:
    """The calls still waiting for their result (as their state machines say)."""
    return [e for e in thread.calls() if thread.state(e) == "pending"]


def pending_ids(pending: list[CallEntry]) -> str:
    """``{element id: toolCallId}`` of pending calls, as JSON for the live script.

    The script needs a call's id to fetch its fragment when the run ends. Each
    id is the one the frames carry (``crossing_id``): an id that redaction would
    change is its opaque id, never spelled out in the DOM.
    """
    ids = {call_element_id(e.tool_call_id): crossing_id(e.tool_call_id, redact) for e in pending}
    return msgspec.json.encode(ids).decode()


def status_line(thread: Thread, pending: list[CallEntry] | None = None) -> str:
    """ "running <tool>" while calls run, else how many calls the thread holds."""
    running = pending_calls(thread) if pending is None else pending
    return status_words(running, len(thread.calls()))


def status_words(pending: list[CallEntry], calls: int) -> str:
    """The status line of a thread of ``calls`` calls, ``pending`` of them running.

    Tool names are redacted, cleaned and kept to one line, as in a call's header.
    """
    running = [clean_field(redact(e.tool_name), _NAME_CHARS) for e in pending]
    if running:
        return "running " + ", ".join(running)
    return f"{calls} call{'' if calls == 1 else 's'}, none running"


async def thread_page(request: Request) -> Response:
    """``GET /threads/{id}``: the thread's last calls (``server.window``), then followed live.

    A thread not there yet (a valid id) is a page waiting for it: it says so
    and reloads itself when the index lists the thread (``static/live.js``).
    """
    thread_id: str = request.path_params["thread_id"]
    try:
        await thread_or_404(request)
    except ApiError:  # a person reads this one: a page, not JSON
        if not THREAD_ID.fullmatch(thread_id):
            return HTMLResponse(document("not found", "<main><h1>No such thread</h1></main>"), 404)
        return HTMLResponse(document(thread_id, _waiting_body(thread_id), live=True))
    drawn = await drawn_thread(request, thread_id, CallWindow(last=PAGE_CALLS))
    drawn.lead = load_more(drawn.first)
    body = _page_body(thread_id, drawn)
    return HTMLResponse(document(thread_id, body, live=True))


def _waiting_body(thread_id: str) -> str:
    safe_id = escape_html(thread_id)
    return (
        f'<main class="tv-page"><nav><a href="/">All threads</a></nav><h1>{safe_id}</h1>'
        f'<p id="tv-status" class="tv-statusline" role="status" aria-live="polite">'
        "waiting for the first observation</p>"
        f'<div id="tv-live" data-thread="{safe_id}" data-waiting="true" data-seq="0" '
        'data-calls="0" data-first="0"><div class="tv-thread"></div></div></main>'
    )


def _page_body(thread_id: str, drawn: Drawn) -> str:
    pending = drawn.pending
    safe_id = escape_html(thread_id)
    status = status_words(pending, drawn.calls)
    return (
        f'<main class="tv-page"><nav><a href="/">All threads</a></nav><h1>{safe_id}</h1>'
        f"{counts_html(drawn.counts)}{toolbar_html()}"
        f'<p id="tv-status" class="tv-statusline" role="status" aria-live="polite">'
        f"{escape_html(status)}</p>"
        # the calls' <h3> headings sit under a level-2 heading, as on the standalone page
        '<h2 class="tv-sr">Tool calls and messages</h2>'
        f'<div id="tv-live" data-thread="{safe_id}" data-seq="{drawn.seq}" '
        f'data-calls="{drawn.calls}" data-first="{drawn.first}" '
        f'data-pending="{escape_html(pending_ids(pending))}" '
        f'data-max-lines="{DEFAULT_LIMITS.max_lines}" data-max-chars="{DEFAULT_LIMITS.max_chars}">'
        f"{drawn.html}</div></main>"
    )


async def fragments_css(request: Request) -> Response:
    """The html surface's stylesheet, served as a file (the CSP allows no inline style)."""
    return Response(FRAGMENT_CSS, media_type="text/css")


routes = [
    *index.routes,
    Route("/threads/{thread_id}", thread_page, methods=["GET"]),
    *fragments.routes,
    *window_routes.routes,
    *search.routes,
    *cross_search.routes,
    *call_data_routes,
    Route("/static/fragments.css", fragments_css, methods=["GET"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
