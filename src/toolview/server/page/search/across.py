"""``GET /api/search?q=…``: the words in every thread, where the log can search (FTS5).

The SQLite log keeps a full-text index of every thread's redacted text
(``wire.log.sqlite_fts``) and answers ranked matches with snippets; on the
Redis log each server process keeps a word index of the same text from the
streams (``wire.log.redis_search``). ``index`` says which was searched. A log
with neither says so (``supported: false`` and why).

A search is bounded whatever the reader types (``wire.log.sqlite_query``): at
most ``MAX_TERMS`` distinct words are searched (``words`` lists them,
``dropped`` counts the rest), on connections and threads of the search's own
— never under the read lock of the log, nor in the workers ingest uses — and
within ``SECONDS``: ``SEARCH_SECONDS`` unless ``$TOOLVIEW_SEARCH_SECONDS``
says otherwise (up to a minute; the tests force a tiny deadline with it). A
search that runs out answers the best of what it found, ``truncated``, with
``stopped: "time"``, as the thread search does. A client's searches in flight
are counted with its thread searches (``server.page.search.slots``: 429 past the cap).
"""

from __future__ import annotations

import math
import os
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.render.html import call_element_id
from toolview.safety import redact
from toolview.safety.opaque import crossing_id
from toolview.server.errors import ApiError
from toolview.server.page.search.slots import search_slot
from toolview.server.params import query_int
from toolview.server.state import server_state
from toolview.wire.log import SearchableLog, SearchHit, SearchResult, SearchUnsupported
from toolview.wire.log.sqlite_query import MAX_TERMS, SEARCH_SECONDS

__all__ = ["MAX_TERMS", "QUERY_CHARS", "SECONDS", "UNSUPPORTED", "routes", "search_seconds"]

UNSUPPORTED: Final = (
    "this server's log keeps no full-text index: search one thread at a time"
    " (GET /api/threads/{id}/search), or serve from the SQLite log (--db) or Redis (--redis)"
)
_LIMIT: Final = 50
_MAX_LIMIT: Final = 500
QUERY_CHARS: Final = 1000
_MOST_SECONDS: Final = 60.0


def search_seconds(setting: str | None) -> float:
    """A search's time: ``SEARCH_SECONDS``, or ``setting`` (seconds, more than 0, at most 60)."""
    if setting is None:
        return SEARCH_SECONDS
    seconds = float(setting)
    if not (math.isfinite(seconds) and 0 < seconds <= _MOST_SECONDS):
        raise ValueError(f"TOOLVIEW_SEARCH_SECONDS must be in (0, 60], not {setting!r}")
    return seconds


SECONDS: Final = search_seconds(os.environ.get("TOOLVIEW_SEARCH_SECONDS"))


def _result(hit: SearchHit, titles: dict[str, str]) -> dict[str, object]:
    """A hit as it crosses: the call by its crossing id and element id, never its raw id;
    its thread's title, the index card's (the index draws one page: not the hit's thread)."""
    call = hit.call_id
    return {
        "threadId": hit.thread_id,
        "title": titles.get(hit.thread_id, hit.thread_id),
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
    if len(query) > QUERY_CHARS:
        raise ApiError(400, f"q is {len(query)} characters; at most {QUERY_CHARS}")
    try:
        limit = query_int(request, "limit", _LIMIT, 1, _MAX_LIMIT)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    log = server_state(request).log
    if not isinstance(log, SearchableLog):
        return JSONResponse({"query": query, "supported": False, "reason": UNSUPPORTED})
    try:
        with search_slot(request):
            found = await log.search(query, limit, SECONDS)
    except SearchUnsupported as off:
        return JSONResponse({"query": query, "supported": False, "reason": str(off)})
    directory = server_state(request).listing.directory
    titles: dict[str, str] = {}
    for thread_id in dict.fromkeys(hit.thread_id for hit in found.hits):
        card = await directory.card(thread_id) or {}
        titles[thread_id] = str(card.get("title") or thread_id)
    return JSONResponse(_answer(query, found, titles))


def _answer(query: str, found: SearchResult, titles: dict[str, str]) -> dict[str, object]:
    """What crosses: the results, the words searched, how many were dropped, whether cut short."""
    answer: dict[str, object] = {
        "query": query,
        "supported": True,
        "index": found.index,
        "results": [_result(hit, titles) for hit in found.hits],
        "words": found.words,
        "dropped": found.dropped,
        "truncated": found.stopped is not None,
    }
    if found.stopped is not None:
        answer["stopped"] = found.stopped
    return answer


routes = [Route("/api/search", search_threads, methods=["GET"])]
