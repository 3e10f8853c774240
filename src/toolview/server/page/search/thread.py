"""``GET /api/threads/{id}/search``: plain or regex search over a thread's redacted text.

Why on the server: the live page holds a window of a thread (the last 60
calls), so only the server can search all of it. What is searched is what a
reader may see (``server.page.search.thread_text``: redacted, cleaned), never the record:
a secret the page hides is never matched nor spelled in a snippet.

No pattern may hold the server (docs/server.md, "Search limits"): a pattern
is at most ``PATTERN_CHARS`` long; what ``server.page.search.rules`` refuses (big
or nested counted repeats, ``(?f)``/``(?V1)``, nested unbounded quantifiers,
recursion) is a 400 saying why, before anything compiles it; the rest is
compiled and matched in a search process (``server.page.search.worker``), under a
matching budget (``TIME_BUDGET``: the answer is then ``truncated``,
``stopped: "time"``), a wall-clock limit past which the process is killed
(the same answer, with nothing found) and a memory limit. A client holds at
most ``state.SEARCHES_PER_CLIENT`` searches in flight, of both search routes
(more: 429, ``server.page.search.slots``), and the threads
that wait for a search process are the searches' own, never ingest's.
"""

from __future__ import annotations

from functools import partial
from typing import Final

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.page.search.child import COUNT_LIMIT
from toolview.server.page.search.rules import refusal
from toolview.server.page.search.slots import RETRY, search_slot
from toolview.server.page.search.thread_text import Item, TextCache, item_text, snapshot
from toolview.server.page.search.worker import TIME_BUDGET, Found, Stopped, run
from toolview.server.params import query_int, thread_or_404
from toolview.server.state import ServerState, server_state

__all__ = ["COUNT_LIMIT", "PATTERN_CHARS", "TIME_BUDGET", "check_query", "routes"]

PATTERN_CHARS: Final = 1000
_LIMIT: Final = 200
_MAX_LIMIT: Final = 2000


def check_query(query: str, as_regex: bool) -> None:
    """``ValueError`` saying why ``query`` may not be searched (nothing is compiled here)."""
    if not query:
        raise ValueError("q (the text to find) is required")
    if len(query) > PATTERN_CHARS:
        raise ValueError(f"q is {len(query)} characters; at most {PATTERN_CHARS}")
    reason = refusal(query) if as_regex else None
    if reason is not None:
        raise ValueError(f"pattern refused: {reason}")


def _texts(items: list[Item], cache: TextCache, indexes: list[int]) -> list[str]:
    """The redacted texts of the items a search process lacks (made here: redaction is ours)."""
    return [item_text(items[index], cache) for index in indexes]


async def _found(
    state: ServerState, thread_id: str, query: str, flag: bool, limit: int
) -> tuple[list[Item], Found]:
    """The items and what a search process found in them; overrun: ``stopped: "time"``."""
    projection = await state.projections.current(thread_id)
    async with projection.lock:
        items = await anyio.to_thread.run_sync(partial(snapshot, projection))
    keys = [item.key for item in items]
    make = partial(_texts, items, state.texts)
    try:
        found = await in_worker(state.searchers, partial(run, keys, make, query, flag, limit))
    except Stopped as exc:
        if exc.kind == "refused":
            raise ApiError(400, str(exc)) from exc
        if exc.kind == "unavailable":
            raise ApiError(503, f"search is unavailable: {exc}", RETRY) from exc  # no detail
        if exc.kind == "died":
            message = "the search stopped: its process ended (a crash or out of memory); retry"
            raise ApiError(400, message) from exc
        found = Found(0, "time", [])
    return items, found


def _match(items: list[Item], found: tuple[int, int, str, int, int]) -> dict[str, object]:
    """One match as it crosses: the call by its crossing id, never its raw id."""
    index, line, snippet, start, end = found
    item = items[index]
    return {
        "toolCallId": item.crossing,
        "elementId": item.element_id,
        "index": item.index,
        "field": item.field,
        "line": line,
        "snippet": snippet,
        "start": start,
        "end": end,
    }


async def thread_search(request: Request) -> Response:
    """``GET /api/threads/{id}/search?q=…&regex=0|1&limit=N``: matches, counted and listed."""
    thread_id = await thread_or_404(request)
    query = request.query_params.get("q", "")
    flag = request.query_params.get("regex", "0")
    if flag not in ("0", "1"):
        raise ApiError(400, f"regex must be 0 or 1, not {flag[:20]!r}")
    try:
        limit = query_int(request, "limit", _LIMIT, 1, _MAX_LIMIT)
        check_query(query, flag == "1")
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    state = server_state(request)
    with search_slot(request):
        items, found = await _found(state, thread_id, query, flag == "1", limit)
    answer: dict[str, object] = {
        "query": query,
        "regex": flag == "1",
        "total": found.total,
        "truncated": found.stopped is not None or found.total > len(found.matches),
        "matches": [_match(items, match) for match in found.matches],
    }
    if found.stopped is not None:
        answer["stopped"] = found.stopped
    return JSONResponse(answer)


routes = [Route("/api/threads/{thread_id}/search", thread_search, methods=["GET"])]
