"""``GET /api/search?q=…``: the words in every thread, where the log can search (FTS5).

The SQLite log keeps a full-text index of every thread's redacted text
(``wire.log_sqlite_fts``) and answers ranked matches with snippets. The Redis
log keeps none: the answer says so (``supported: false`` and why), and a
thread's own search (``server.search``) still works there.
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.render.html import call_element_id
from toolview.safety import redact
from toolview.safety.opaque import crossing_id
from toolview.server.api import query_int
from toolview.server.errors import ApiError
from toolview.server.search import PATTERN_CHARS
from toolview.server.state import server_state
from toolview.wire.log import SearchableLog, SearchHit

__all__ = ["UNSUPPORTED", "routes"]

UNSUPPORTED: Final = (
    "this server's log (Redis) keeps no full-text index: search one thread at a time"
    " (GET /api/threads/{id}/search), or serve from the SQLite log (--db)"
)
_LIMIT: Final = 50
_MAX_LIMIT: Final = 500


def _result(hit: SearchHit) -> dict[str, object]:
    """A hit as it crosses: the call by its crossing id and element id, never its raw id."""
    call = hit.call_id
    return {
        "threadId": hit.thread_id,
        "toolCallId": crossing_id(call, redact) if call is not None else None,
        "elementId": call_element_id(call) if call is not None else None,
        "field": hit.field,
        "seq": hit.seq,
        "snippet": hit.snippet,
        "start": hit.start,
        "end": hit.end,
    }


async def search_threads(request: Request) -> Response:
    """``GET /api/search?q=…&limit=N``: ranked matches across threads, or why not."""
    query = request.query_params.get("q", "")
    if not query.strip():
        raise ApiError(400, "q (the words to find) is required")
    if len(query) > PATTERN_CHARS:
        raise ApiError(400, f"q is {len(query)} characters; at most {PATTERN_CHARS}")
    try:
        limit = query_int(request, "limit", _LIMIT, 1, _MAX_LIMIT)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    log = server_state(request).log
    if not isinstance(log, SearchableLog):
        return JSONResponse({"query": query, "supported": False, "reason": UNSUPPORTED})
    hits = await log.search(query, limit)
    results = [_result(hit) for hit in hits]
    return JSONResponse({"query": query, "supported": True, "results": results})


routes = [Route("/api/search", search_threads, methods=["GET"])]
