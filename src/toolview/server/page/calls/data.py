"""A call's whole output in chunks, and its observations as JSON: nothing hidden the log has.

Why: the page cuts a long output ("… 437 more lines") and the log holds the
rest; ``/output`` hands it over a chunk at a time, ``/raw`` shows what the call
is made of. Both are redacted like every answer (``server.page.search.thread_text``: the
whole text is redacted first, then cut, so no chunk edge splits a secret), and
a call is named by the id it crossed to the browser as (``fragments.find_call``):
a raw id holding a secret never routes.
"""

from __future__ import annotations

from functools import partial
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.contract import CallEntry, Observation
from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.page.fragments import find_call
from toolview.server.page.search.thread_text import Item, TextCache, TextKey, whole_text
from toolview.server.params import query_int, thread_or_404
from toolview.server.state import ServerState, server_state
from toolview.wire.follow import Redactor, redact_observation

__all__ = [
    "CHUNK_CHARS",
    "MAX_CHUNK",
    "call_entry",
    "output_chunk",
    "raw_observations",
    "routes",
    "window_params",
]

CHUNK_CHARS: Final = 64 * 1024
MAX_CHUNK: Final = 1024 * 1024
_UNITS: Final = ("chars", "lines")


def output_chunk(text: str, offset: int, limit: int, unit: str) -> dict[str, object]:
    """``limit`` characters (or lines) of ``text`` from ``offset``; ``next`` None at the end."""
    if unit == "lines":
        lines = text.splitlines(keepends=True)
        part = "".join(lines[offset : offset + limit])
        total, stop = len(lines), offset + limit
    else:
        part, total, stop = text[offset : offset + limit], len(text), offset + limit
    return {
        "text": part,
        "offset": offset,
        "next": stop if stop < total else None,
        "total": total,
        "unit": unit,
    }


def raw_observations(entry: CallEntry, redactor: Redactor) -> list[Observation]:
    """The call's observations as the thread keeps them (call, latest result, ignored), redacted."""
    kept: list[Observation | None] = [entry.call, entry.result, *entry.ignored]
    return [redact_observation(o, redactor) for o in kept if o is not None]


async def call_entry(request: Request) -> tuple[ServerState, CallEntry, TextKey]:
    """The state, the call the path names and its output's cache key; 404 for none."""
    thread_id = await thread_or_404(request)
    state = server_state(request)
    projection = await state.projections.current(thread_id)
    call_id: str = request.path_params["call_id"]
    async with projection.lock:
        entry = find_call(projection.thread, call_id, state.redactor.id)
        if entry is None:
            raise ApiError(404, "no such call in this thread")
        tally, raw = projection.tally, entry.tool_call_id
        key = (tally.epoch, tally.index.get(raw, -1), tally.versions.get(raw, 0), "output")
    return state, entry, key


def window_params(request: Request) -> tuple[int, int]:
    """``offset`` and ``limit`` of a window of text (400 when either is wrong)."""
    try:
        offset = query_int(request, "offset", 0, 0, 2**62)
        return offset, query_int(request, "limit", CHUNK_CHARS, 1, MAX_CHUNK)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc


async def call_output(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/output?offset=&limit=&unit=chars|lines``."""
    unit = request.query_params.get("unit", "chars")
    if unit not in _UNITS:
        raise ApiError(400, f"unit must be 'chars' or 'lines', not {unit[:20]!r}")
    offset, limit = window_params(request)
    state, entry, key = await call_entry(request)
    result = entry.result
    item = None if result is None else Item(0, "output", key, result, entry.tool_call_id)
    make = partial(_chunk, state.texts, item, offset, limit, unit)
    return JSONResponse(await in_worker(state.workers, make))


def _chunk(
    cache: TextCache, item: Item | None, offset: int, limit: int, unit: str
) -> dict[str, object]:
    return output_chunk("" if item is None else whole_text(item, cache), offset, limit, unit)


async def call_raw(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/raw``: the call's observations, redacted JSON."""
    state, entry, _ = await call_entry(request)
    observations = await in_worker(state.workers, partial(raw_observations, entry, state.redactor))
    body = {"toolCallId": state.redactor.id(entry.tool_call_id), "observations": observations}
    return Response(msgspec.json.encode(body), media_type="application/json")


routes = [
    Route("/api/threads/{thread_id}/calls/{call_id}/output", call_output, methods=["GET"]),
    Route("/api/threads/{thread_id}/calls/{call_id}/raw", call_raw, methods=["GET"]),
]
