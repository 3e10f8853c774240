"""The HTTP API: threads, posting observations, the log with its sent tail, AG-UI.

Every response body that may reach a browser is redacted on the way out.
"""

from __future__ import annotations

import secrets
from functools import partial
from pathlib import Path
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from toolview.contract import Observation
from toolview.server.errors import RETRY_AFTER, ApiError
from toolview.server.guard.named_tokens import TOKEN_NAME, stamp_machine
from toolview.server.ingest.batch import (
    BadBatch,
    BodyTooLarge,
    idempotency_key,
    parse_observations,
    read_body,
)
from toolview.server.ingest.budget import ServerBusy
from toolview.server.live.agui_follow import follow_agui
from toolview.server.offload import in_worker
from toolview.server.page.index.paging import ListingQuery
from toolview.server.params import THREAD_ID, THREAD_ID_RULE, query_int, thread_or_404
from toolview.server.snapshots import agui_snapshot, events_page
from toolview.server.state import ServerState, server_state
from toolview.wire.idempotency import KeyConflict
from toolview.wire.log import UnknownThread

__all__ = ["OPENAPI", "routes"]

OPENAPI: Final = Path(__file__).parent / "openapi.json"

_PAGE: Final = 1000
_CREATE_LIMIT: Final = 4096  # a thread's creation body is {"id": …}: no need for more


async def list_threads(request: Request) -> Response:
    """``GET /api/threads``: every thread, newest first (``server.page.index.directory``);
    with ``offset``/``limit``/filters/``sort``, one page of them (``server.page.index.paging``)."""
    listing = server_state(request).listing
    try:
        query = ListingQuery.of(request.query_params)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    if query is None:
        return Response(await listing.encoded(fresh=True), media_type="application/json")
    # ``fresh=0``: the listing the follow stream compares (at most a second old), as the
    # index script asks — not a second full listing right after the page's own
    fresh = request.query_params.get("fresh") != "0"
    page = await listing.page(query, fresh=fresh)
    return Response(msgspec.json.encode(page), media_type="application/json")


async def create_thread(request: Request) -> Response:
    """``POST /api/threads``: a new thread (``{"id": …}`` in the body picks its id)."""
    try:
        body = await read_body(request, _CREATE_LIMIT)
    except BodyTooLarge as exc:
        raise ApiError(413, str(exc)) from exc
    thread_id = secrets.token_urlsafe(9)
    if body.strip():
        try:
            wanted = msgspec.json.decode(body, type=dict[str, str]).get("id")
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            message = f'body must be a JSON object like {{"id": "name"}}: {exc}'
            raise ApiError(400, message) from exc
        if wanted is not None:
            if not THREAD_ID.fullmatch(wanted):
                raise ApiError(400, f"$.id: {THREAD_ID_RULE}, not {wanted[:80]!r}")
            thread_id = wanted
    created = await server_state(request).log.create_thread(thread_id)
    return JSONResponse({"id": thread_id, "created": created}, 201 if created else 200)


async def post_observations(request: Request) -> Response:
    """``POST /api/threads/{id}/observations``: all stored, or none (400 / 413 / 422).

    With an ``Idempotency-Key`` header, a key this thread has seen answers the
    original seqs with ``Idempotent-Replayed: true`` and stores nothing.
    Sent with a named token, a run started is stored with that token's name as
    its machine (``server.guard.named_tokens.stamp_machine``).
    """
    thread_id = await thread_or_404(request)
    state = server_state(request)
    with state.bodies.hold() as hold:  # the body's bytes, until it is parsed and stored
        try:
            key = idempotency_key(request)
            body = await read_body(request, state.body_limit, hold)
            observations = await in_worker(state.workers, partial(parse_observations, body))
        except BodyTooLarge as exc:
            raise ApiError(413, str(exc)) from exc
        except BadBatch as exc:
            raise ApiError(400, str(exc)) from exc
        except ServerBusy as exc:
            raise ApiError(503, str(exc), {"retry-after": RETRY_AFTER}) from exc
        observations = stamp_machine(observations, request.scope.get(TOKEN_NAME))
        return await _store(state, thread_id, observations, key)


async def _store(
    state: ServerState, thread_id: str, observations: list[Observation], key: str | None
) -> Response:
    """Append ``observations`` (once per ``key``, if one was sent); the seqs, or the error."""
    try:
        if key is None:
            return JSONResponse({"seqs": await state.log.append(thread_id, observations)})
        appended = await state.log.append_once(thread_id, observations, key)
    except UnknownThread:
        raise ApiError(404, f"no thread {thread_id!r}") from None
    except KeyConflict as exc:
        raise ApiError(422, str(exc)) from exc
    replayed = {"idempotent-replayed": "true"} if appended.replayed else {}
    return JSONResponse({"seqs": appended.seqs}, headers=replayed)


async def events(request: Request) -> Response:
    """``GET /api/threads/{id}/events``: the log (partials too), emitted and sent counts.

    A page holds ``limit`` events or about 4 MiB of them (``server.snapshots``);
    ``next`` is the ``after`` of the next page (``null``: the end of the log).
    """
    thread_id = await thread_or_404(request)
    state = server_state(request)
    try:
        after = query_int(request, "after", 0, 0, 2**62)
        limit = query_int(request, "limit", _PAGE, 1, 10 * _PAGE)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    body = await events_page(state, thread_id, after, limit)
    return Response(body, media_type="application/json")


async def agui(request: Request) -> Response:
    """``GET /api/threads/{id}/agui``: the thread as AG-UI events (SSE, or ``?format=json``).

    With ``follow=1``, a live stream instead of a snapshot (``server.live.agui_follow``).
    """
    thread_id = await thread_or_404(request)
    if request.query_params.get("follow", "0") != "0":
        return follow_agui(request, thread_id)
    form = request.query_params.get("format", "sse")
    if form not in ("sse", "json"):
        raise ApiError(400, f"format must be 'sse' or 'json', not {form!r}")
    snapshot = agui_snapshot(server_state(request), thread_id, form)
    media = "application/json" if form == "json" else "text/event-stream"
    return StreamingResponse(snapshot, media_type=media)


async def threads(request: Request) -> Response:
    """``/api/threads``: one route for both methods, so a 405 lists both in ``Allow``."""
    return await (create_thread if request.method == "POST" else list_threads)(request)


async def openapi(request: Request) -> Response:
    """``GET /api/openapi.json``: the API's hand-written description (kept whole by a test)."""
    return Response(OPENAPI.read_bytes(), media_type="application/json")


routes = [
    Route("/api/openapi.json", openapi, methods=["GET"]),
    Route("/api/threads", threads, methods=["GET", "POST"]),
    Route("/api/threads/{thread_id}/observations", post_observations, methods=["POST"]),
    Route("/api/threads/{thread_id}/events", events, methods=["GET"]),
    Route("/api/threads/{thread_id}/agui", agui, methods=["GET"]),
]
