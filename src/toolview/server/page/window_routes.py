"""``GET /api/threads/{id}/window``: the markup of some of a thread's calls (``page.window``).

Two forms. ``?before=B&count=N``: the ``N`` calls before call ``B`` (and the
messages among them), bare, for the live page to insert above its window
(no ``before``: the last ``N`` calls).
``?from=F``: calls ``F`` to the thread's end, as the page's whole thread
container (its "load more", the calls, the summary), for the live script to
redraw its window without fetching the calls it does not show. Both say the
index of their first call (``x-toolview-first``), the thread's call count
(``x-toolview-calls``) and the seq they hold (``x-toolview-seq``).
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.server.errors import ApiError
from toolview.server.page.fragments import drawn_thread
from toolview.server.page.window import PAGE_CALLS, CallWindow, load_more
from toolview.server.params import query_int, thread_or_404

__all__ = ["FIRST_HEADER", "routes"]

FIRST_HEADER: Final = "x-toolview-first"
_MAX_COUNT: Final = 1000
_MAX_INDEX: Final = 2**40


async def window(request: Request) -> Response:
    """Some calls' markup: ``before``/``count`` (bare) or ``from`` (the thread container)."""
    thread_id = await thread_or_404(request)
    params = request.query_params
    try:
        if "from" in params:
            start = query_int(request, "from", 0, 0, _MAX_INDEX)
            drawn = await drawn_thread(request, thread_id, CallWindow(start))
            drawn.lead = load_more(drawn.first)
            html = drawn.html
        else:  # no before: the last ``count`` calls, to the thread's end
            count = query_int(request, "count", PAGE_CALLS, 1, _MAX_COUNT)
            window = CallWindow(last=count)
            if "before" in params:
                before = query_int(request, "before", 0, 0, _MAX_INDEX)
                window = CallWindow(max(0, before - count), before)
            drawn = await drawn_thread(request, thread_id, window)
            html = drawn.fragment
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    headers = {
        FIRST_HEADER: str(drawn.first),
        "x-toolview-calls": str(drawn.calls),
        "x-toolview-seq": str(drawn.seq),
    }
    return HTMLResponse(html, headers=headers)


routes = [Route("/api/threads/{thread_id}/window", window, methods=["GET"])]
