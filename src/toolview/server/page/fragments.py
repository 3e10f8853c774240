"""The live page's fragments: one call, the whole thread, the summary, rendered here.

Completed calls are fetched as fragments rendered by the html surface
(``/api/threads/{id}/call?id={callId}``: the id is a query parameter, so no
path normalisation can turn a call id ``..`` into another resource), never
rendered in the browser, so the page and a reload always agree. A call's
fragment says which element it is (``x-toolview-element``) and the live
script takes nothing else.

Every route reads its thread through the server's projections (``projection``):
a request reads only the records not read before, not the whole thread. A
call's markup is rendered once per version and cached; a whole thread is its
cached pieces joined, the missing ones rendered in worker processes
(``server.page.pieces.markup``); the summary comes from counters (``server.page.tally``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.contract import CallEntry, Thread
from toolview.render.html import call_element_id, successes_open
from toolview.render.html.receipt import summary_html
from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.page.header.counts_line import COUNTS_HEADER, counts_line_text
from toolview.server.page.header.facts import FACTS_HEADER, facts_json
from toolview.server.page.pieces.cache import PieceKey
from toolview.server.page.pieces.jobs import CallJob, call_job, render_jobs
from toolview.server.page.pieces.markup import Drawn, next_tick, thread_markup
from toolview.server.page.projection import Projection
from toolview.server.page.window import CallWindow
from toolview.server.params import thread_or_404
from toolview.server.state import ServerState, server_state

__all__ = ["CALL_HEADER", "ELEMENT_HEADER", "INDEX_HEADER", "drawn_thread", "find_call", "routes"]

ELEMENT_HEADER: Final = "x-toolview-element"
"""The element id a call fragment holds: the live page accepts that element only."""
INDEX_HEADER: Final = "x-toolview-index"
"""The call's index among its thread's calls: a windowed page inserts only calls past its start."""
CALL_HEADER: Final = "x-toolview-call"
"""The id (as it crossed to the browser) of the call a fragment holds: for a sub-agent's
call asked for, the thread's call that ran it, whose article holds it."""


async def drawn_thread(request: Request, thread_id: str, window: CallWindow | None = None) -> Drawn:
    """The thread's markup and what the page shows beside it (``server.page.pieces.markup``).

    Why: rendering a big thread took minutes, and in a worker thread still
    held every other request ~100× its time (the interpreter lock): pieces
    are cached per call version and the missing ones rendered in processes.
    """
    state = server_state(request)
    return await thread_markup(state.projections, state.pieces, thread_id, window)


def find_call(thread: Thread, call_id: str, crossed: Callable[[str], str]) -> CallEntry | None:
    """The call the browser names ``call_id``: by the id it was given (``crossed``).

    An id holding a secret crossed to the browser as its opaque id, so it is
    looked up by that, never by the raw id (which the browser never saw). Most
    ids cross unchanged and are found at once; an opaque one by a walk.
    """
    entry = thread.call(call_id)
    if entry is not None and crossed(entry.tool_call_id) == call_id:
        return entry
    return next((e for e in thread.calls() if crossed(e.tool_call_id) == call_id), None)


async def call_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/call?id={callId}``: one call, rendered here.

    The response names the one element it holds (``x-toolview-element``).
    """
    call_id = request.query_params.get("id")
    if not call_id:
        raise ApiError(400, "id (the call's toolCallId) is required: /api/threads/{id}/call?id=…")
    return await _call_response(request, call_id, json_errors=True)


async def call_fragment_by_path(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/html``: the same, the id in the path.

    Kept for API clients; a browser would normalise a call id ``.`` or ``..``
    away (the live page uses ``call?id=``).
    """
    return await _call_response(request, request.path_params["call_id"], json_errors=False)


async def _call_response(request: Request, call_id: str, *, json_errors: bool) -> Response:
    thread_id = await thread_or_404(request)
    state = server_state(request)
    found = await _one_call(state, thread_id, call_id)
    if found is None:
        if json_errors:
            raise ApiError(404, "no such call in this thread")
        return HTMLResponse("", 404)
    html, tool_call_id, index = found
    headers = {ELEMENT_HEADER: call_element_id(tool_call_id), INDEX_HEADER: str(index)}
    headers[CALL_HEADER] = state.redactor.id(tool_call_id)
    return HTMLResponse(html, headers=headers)


async def _one_call(
    state: ServerState, thread_id: str, call_id: str
) -> tuple[str, str, int] | None:
    """The call's markup (cached per version), raw id and index; ``None``: no such call."""
    tick = next_tick()
    projection = await state.projections.current(thread_id)
    async with projection.lock:  # a worker may be folding into the thread otherwise
        look = partial(_look_up, projection, call_id, state.redactor.id)
        found = await in_worker(state.workers, look)
    if found is None:
        return None
    key, job, index = found
    piece = state.pieces.get(key, tick)
    if piece is None:
        piece = (await in_worker(state.workers, partial(render_jobs, [job])))[0]
        state.pieces.put(key, piece, tick)
    return piece, job.entry.tool_call_id, index


def _look_up(
    projection: Projection, call_id: str, crossed: Callable[[str], str]
) -> tuple[PieceKey, CallJob, int] | None:
    thread, tally = projection.thread, projection.tally
    entry = find_call(thread, call_id, crossed)
    if entry is None and crossed(call_id) == call_id:
        # a sub-agent's call: the thread's call that ran it holds it. Only an id that
        # crosses unchanged routes so: a raw id holding a secret never does (the
        # browser was given its opaque id, which a sub-agent's call is not found by)
        top = thread.top_call_id(call_id)
        entry = thread.call(top) if top is not None else None
    if entry is None:
        return None
    raw = entry.tool_call_id
    key = (tally.epoch, tally.index[raw], tally.versions[raw], successes_open(tally.calls))
    return key, call_job(thread, entry, tally.calls), tally.ordinal.get(raw, 0)


async def thread_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/html``: the whole thread as one fragment."""
    thread_id = await thread_or_404(request)
    drawn = await drawn_thread(request, thread_id)
    # the seq it holds, so the live page skips the messages it already shows
    return HTMLResponse(drawn.html, headers={"x-toolview-seq": str(drawn.seq)})


async def summary_fragment(request: Request) -> Response:
    """``GET /threads/{id}/summary``: the thread's summary footer (empty below two calls).

    The live page refreshes it after calls change instead of the whole thread;
    it is read from the projection's counters (``server.page.tally``), no call rendered.
    The page header's counts line (``server.page.header.counts_line``) and facts
    (``server.page.header.facts``) come with it, as headers.
    """
    thread_id = await thread_or_404(request)
    projection = await server_state(request).projections.current(thread_id)
    async with projection.lock:
        counts = projection.thread.counts()
        summary = projection.tally.summary(counts)
    body = "" if summary is None else summary_html(summary)
    headers = {COUNTS_HEADER: counts_line_text(counts), FACTS_HEADER: facts_json(counts)}
    return HTMLResponse(body, headers=headers)


routes = [
    Route("/threads/{thread_id}/summary", summary_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/html", thread_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/call", call_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/calls/{call_id}/html", call_fragment_by_path, methods=["GET"]),
]
