"""``GET /api/threads/{id}/search``: plain or regex search over a thread's redacted text.

Why on the server: the live page holds a window of a thread (the last 100
calls), so only the server can search all of it. What is searched is what a
reader may see (``server.thread_text``: redacted, cleaned), never the record:
a secret the page hides is never matched nor spelled in a snippet.

No pattern may hold the server: patterns are at most ``PATTERN_CHARS`` long
and run under the ``regex`` module's timeout, ``TIME_BUDGET`` for the whole
search; a search that runs out answers what it found, ``truncated``, with
``stopped: "time"``. A pattern that does not compile is a 400 with the reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from typing import Final

import regex
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.server.api import query_int, thread_or_404
from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.state import server_state
from toolview.server.thread_text import Item, TextCache, item_text, snapshot

__all__ = ["COUNT_LIMIT", "PATTERN_CHARS", "TIME_BUDGET", "compile_query", "routes", "search"]

PATTERN_CHARS: Final = 1000
TIME_BUDGET: Final = 2.0  # seconds of matching per search, all fields together
COUNT_LIMIT: Final = 100_000  # matches counted; more is "truncated"
_SIDE: Final = 60  # snippet characters kept either side of a match
_LIMIT: Final = 200
_MAX_LIMIT: Final = 2000


def compile_query(query: str, as_regex: bool) -> regex.Pattern[str]:
    """The compiled pattern (plain text: literal, case-insensitive); ``ValueError`` says why not."""
    if not query:
        raise ValueError("q (the text to find) is required")
    if len(query) > PATTERN_CHARS:
        raise ValueError(f"q is {len(query)} characters; at most {PATTERN_CHARS}")
    if not as_regex:
        return regex.compile(regex.escape(query), regex.IGNORECASE | regex.V0)
    try:
        return regex.compile(query, regex.V0)
    except (regex.error, OverflowError, RecursionError) as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None


@dataclass
class Found:
    """What a search found so far."""

    limit: int
    total: int = 0
    matches: list[dict[str, object]] = field(default_factory=list)
    stopped: str | None = None


def search(items: list[Item], pattern: regex.Pattern[str], limit: int, cache: TextCache) -> Found:
    """Every match in ``items`` (``limit`` of them listed), within ``TIME_BUDGET``."""
    found = Found(limit)
    deadline = time.monotonic() + TIME_BUDGET
    for item in items:
        text = item_text(item, cache)
        try:
            _scan(item, text, pattern, found, deadline)
        except TimeoutError:
            found.stopped = "time"
        if found.stopped:
            break
    return found


def _scan(
    item: Item, text: str, pattern: regex.Pattern[str], found: Found, deadline: float
) -> None:
    line, counted_to = 1, 0
    left = max(deadline - time.monotonic(), 0.001)
    for match in pattern.finditer(text, timeout=left, concurrent=True):
        start, end = match.span()
        if start == end:
            continue  # an empty match marks nothing
        found.total += 1
        if found.total > COUNT_LIMIT:
            found.total, found.stopped = COUNT_LIMIT, "count"
            return
        if len(found.matches) < found.limit:
            line += text.count("\n", counted_to, start)
            counted_to = start
            found.matches.append(_match(item, text, start, end, line))


def _match(item: Item, text: str, start: int, end: int, line: int) -> dict[str, object]:
    """One match: where it is and a one-line snippet around it (offsets in code points)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    left = max(line_start, start - _SIDE)
    right = min(line_end, end + _SIDE) if end <= line_end else min(end, start + 4 * _SIDE)
    snippet = text[left:right]
    return {
        "toolCallId": item.crossing,
        "elementId": item.element_id,
        "index": item.index,
        "field": item.field,
        "line": line,
        "snippet": snippet,
        "start": start - left,
        "end": min(end, right) - left,
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
        pattern = compile_query(query, flag == "1")
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    state = server_state(request)
    projection = await state.projections.current(thread_id)
    async with projection.lock:
        items = await in_worker(state.workers, partial(snapshot, projection))
    found = await in_worker(state.workers, partial(search, items, pattern, limit, state.texts))
    answer: dict[str, object] = {
        "query": query,
        "regex": flag == "1",
        "total": found.total,
        "truncated": found.stopped is not None or found.total > len(found.matches),
        "matches": found.matches,
    }
    if found.stopped is not None:
        answer["stopped"] = found.stopped
    return JSONResponse(answer)


routes = [Route("/api/threads/{thread_id}/search", thread_search, methods=["GET"])]
