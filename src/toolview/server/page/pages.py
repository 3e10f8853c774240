"""The web page: threads listed, a thread rendered server-side by the html surface.

The page follows its thread live with a small served script (``static/live.js``,
no inline script: the CSP forbids it), which fetches calls as fragments
(``server.page.fragments``) and draws a plain message as text, in the markup
``message_html`` makes.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from toolview.render.html import FRAGMENT_CSS
from toolview.render.limits import DEFAULT_LIMITS
from toolview.safety import escape_html
from toolview.server.errors import ApiError
from toolview.server.page import fragments, running, share_routes, window_routes
from toolview.server.page.calls import data as call_data
from toolview.server.page.calls import stored as stored_output
from toolview.server.page.calls.app import routes as app_routes
from toolview.server.page.fragments import drawn_thread
from toolview.server.page.header.counts_line import counts_html
from toolview.server.page.header.facts import facts_html, who_html
from toolview.server.page.header.toolbar import toolbar_html
from toolview.server.page.index import routes as index
from toolview.server.page.pieces.markup import Drawn
from toolview.server.page.running import pending_ids, status_words
from toolview.server.page.search import across as cross_search
from toolview.server.page.search import thread as search
from toolview.server.page.shell import STATIC, document
from toolview.server.page.stats.routes import routes as stats_routes
from toolview.server.page.window import PAGE_CALLS, CallWindow, load_more
from toolview.server.params import THREAD_ID, thread_or_404
from toolview.server.state import server_state

__all__ = ["document", "routes"]


async def thread_page(request: Request) -> Response:
    """``GET /threads/{id}``: the thread's last calls (``server.page.window``), then followed live.

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
    card = await server_state(request).listing.directory.card(thread_id) or {}
    title = str(card.get("title") or thread_id)
    body = _page_body(thread_id, title, drawn, who_html(card))
    token: str | None = request.app.state.decisions.page_token(request.scope)
    return HTMLResponse(document(title, body, live=True, page_token=token))


def _waiting_body(thread_id: str) -> str:
    safe_id = escape_html(thread_id)
    return (
        f'<main class="tv-page"><nav><a href="/">All threads</a></nav><h1>{safe_id}</h1>'
        f'<p id="tv-status" class="tv-statusline" role="status" aria-live="polite">'
        "waiting for the first observation</p>"
        f'<div id="tv-live" data-thread="{safe_id}" data-waiting="true" data-seq="0" '
        'data-calls="0" data-first="0"><div class="tv-thread"></div></div></main>'
    )


def _page_body(thread_id: str, title: str, drawn: Drawn, who: str) -> str:
    """The page: its header (the title, agent, project, branch and start every view shows:
    the index's card, ``contract.session_facts``), then calls."""
    pending = drawn.pending
    safe_id = escape_html(thread_id)
    status = status_words(pending, drawn.calls)
    return (
        f'<main class="tv-page"><nav><a href="/">All threads</a> · '
        f'<a href="/threads/{safe_id}/share" class="tv-share-link">Share</a></nav>'
        f'<h1 id="tv-title">{escape_html(title)}</h1>'
        f"{counts_html(drawn.counts)}{facts_html(drawn.counts)}{who}{toolbar_html()}"
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
    *stats_routes,
    Route("/threads/{thread_id}", thread_page, methods=["GET"]),
    *fragments.routes,
    *window_routes.routes,
    *running.routes,
    *search.routes,
    *cross_search.routes,
    *call_data.routes,
    *stored_output.routes,
    *app_routes,
    *share_routes.routes,
    Route("/static/fragments.css", fragments_css, methods=["GET"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
