"""The live page's fragments: one call, the whole thread, the summary, rendered here.

Completed calls are fetched as fragments rendered by the html surface
(``/api/threads/{id}/call?id={callId}``: the id is a query parameter, so no
path normalisation can turn a call id ``..`` into another resource), never
rendered in the browser, so the page and a reload always agree. A call's
fragment says which element it is (``x-toolview-element``) and the live
script takes nothing else.

Every route reads its thread through the server's projections (``projection``):
a request reads only the records not read before, not the whole thread; a
whole-thread render runs in a worker (``rendered``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final, TypeVar

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.contract import CallEntry, Thread
from toolview.render.html import call_element_id, render_call_html, render_thread_html
from toolview.render.html.receipt import summary_html
from toolview.render.summary import thread_summary
from toolview.server.api import thread_or_404
from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.state import server_state

__all__ = ["ELEMENT_HEADER", "find_call", "rendered", "routes"]

T = TypeVar("T")

ELEMENT_HEADER: Final = "x-toolview-element"
"""The element id a call fragment holds: the live page accepts that element only."""


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
    id_of = server_state(request).redactor.id

    def render(thread: Thread, _: int) -> tuple[str, str] | None:
        entry = find_call(thread, call_id, id_of)
        return None if entry is None else (render_call_html(entry, thread), entry.tool_call_id)

    found = await rendered(request, thread_id, render)  # under the projection's lock
    if found is None:
        if json_errors:
            raise ApiError(404, "no such call in this thread")
        return HTMLResponse("", 404)
    html, tool_call_id = found
    return HTMLResponse(html, headers={ELEMENT_HEADER: call_element_id(tool_call_id)})


async def thread_fragment(request: Request) -> Response:
    """``GET /api/threads/{id}/html``: the whole thread as one fragment."""
    thread_id = await thread_or_404(request)
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
    return HTMLResponse(await rendered(request, thread_id, lambda thread, _: _summary(thread)))


def _summary(thread: Thread) -> str:
    summary = thread_summary(thread)
    return "" if summary is None else summary_html(summary)


routes = [
    Route("/threads/{thread_id}/summary", summary_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/html", thread_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/call", call_fragment, methods=["GET"]),
    Route("/api/threads/{thread_id}/calls/{call_id}/html", call_fragment_by_path, methods=["GET"]),
]
