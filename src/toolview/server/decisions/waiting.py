"""What waits for a person: one thread's waiting calls, and every thread's at once.

``GET /api/threads/{id}/waiting`` lists one thread's calls in ``needs_input``
as they were asked (redacted like everything the server answers);
``GET /api/waiting`` lists them across threads, each with its ``thread``, for
``toolview approve`` and any client that asks "what waits for me". Why the
cross-thread list reads the newest ``?threads=N`` threads only (default 20, at
most the server's projection limit, 32): each thread's ledger is a projection,
a request must not fold a whole log, and more threads than the projection
cache holds would evict the live pages' own (measured: 50 threads refolded on
every listing); a call waits in a live session, and live sessions are the newest.
Both are reads: the guards' read rules apply (token, origin), as for any GET.
"""

from __future__ import annotations

from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.server.errors import ApiError
from toolview.server.params import query_int, thread_or_404
from toolview.server.state import ServerState, server_state
from toolview.wire.memo import redact_observation

__all__ = ["THREADS_DEFAULT", "routes"]

THREADS_DEFAULT: Final = 20


async def _asks(state: ServerState, thread_id: str) -> list[dict[str, object]]:
    """The thread's waiting calls as asked, redacted, in the ledger's order."""
    projection = await state.projections.current(thread_id)
    async with projection.lock:
        thread = projection.thread
        asks = [e.waiting for i in thread.ledger.waiting() if (e := thread.call(i)) is not None]
    return [
        msgspec.to_builtins(redact_observation(ask, state.redactor))
        for ask in asks
        if ask is not None
    ]


async def waiting(request: Request) -> Response:
    """``GET /api/threads/{id}/waiting``: the calls waiting for a person, as asked (redacted)."""
    thread_id = await thread_or_404(request)
    return JSONResponse({"waiting": await _asks(server_state(request), thread_id)})


async def all_waiting(request: Request) -> Response:
    """``GET /api/waiting?threads=N``: every waiting call of the newest N threads, each with its
    ``thread``; ``threadsRead`` says how many threads were read of how many there are."""
    try:
        state = server_state(request)
        most = state.projection_limit
        limit = query_int(request, "threads", min(THREADS_DEFAULT, most), 1, most)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    threads = await state.log.threads()
    newest = sorted(threads, key=lambda info: info.created, reverse=True)[:limit]
    found = [{"thread": info.id, **ask} for info in newest for ask in await _asks(state, info.id)]
    return JSONResponse({"waiting": found, "threadsRead": len(newest), "threads": len(threads)})


routes = [
    Route("/api/waiting", all_waiting, methods=["GET"]),
    Route("/api/threads/{thread_id}/waiting", waiting, methods=["GET"]),
]
