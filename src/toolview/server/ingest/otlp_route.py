"""``POST /v1/traces``: OTLP/HTTP trace exports stored as observations, live.

The observations endpoint's rules hold: the token (``server.guard.auth``), the
cross-site guard (which lets ``application/x-protobuf`` through here only: a
browser page cannot send it without a preflight, and none is granted), the
body limit and budget, and a malformed body is a 400 with nothing stored.
Each span is appended under its own idempotency key (``otlp-<trace>-<span>``),
so an exporter's retry of a batch whose answer was lost stores nothing twice;
a thread's spans go in one write (``append_each``: one transaction, not one
per span), and the appends go through the log like any observation, so
followers see them.

The answer is OTLP's ``ExportTraceServiceResponse`` in the request's
encoding; spans that could not be shown are counted in its
``partial_success``. Errors keep the server's one shape (``{"error": …}``):
an exporter reads only the status code.
"""

from __future__ import annotations

from functools import partial

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.hosts.otel import Export, map_export
from toolview.server.errors import RETRY_AFTER, ApiError
from toolview.server.ingest.batch import BodyTooLarge, read_body
from toolview.server.ingest.budget import ServerBusy
from toolview.server.ingest.otlp_body import (
    OTLP_PATH,
    BadTraces,
    UnsupportedBody,
    body_form,
    content_encoding,
    inflate,
)
from toolview.server.offload import in_worker
from toolview.server.state import ServerState, server_state
from toolview.wire.idempotency import KeyConflict, Keyed

__all__ = ["routes"]


async def post_traces(request: Request) -> Response:
    """``POST /v1/traces``: map the export's GenAI spans into threads; OTLP's answer."""
    from toolview.server.ingest.otlp_decode import encode_response  # protobuf: on the first export

    state = server_state(request)
    try:
        form = body_form(request.headers)
        encoding = content_encoding(request.headers)
        with state.bodies.hold() as hold:
            body = await read_body(request, state.body_limit, hold)
            work = partial(_decode, body, encoding, form, state.body_limit)
            export = await in_worker(state.workers, work)
    except UnsupportedBody as exc:
        raise ApiError(415, str(exc)) from exc
    except BodyTooLarge as exc:
        raise ApiError(413, str(exc)) from exc
    except BadTraces as exc:
        raise ApiError(400, str(exc)) from exc
    except ServerBusy as exc:
        raise ApiError(503, str(exc), {"retry-after": RETRY_AFTER}) from exc
    rejected = export.rejected + await _store(state, export)
    message = f"{len(rejected)} span(s) not shown; the first: {rejected[0]}" if rejected else ""
    return Response(encode_response(len(rejected), message, form), media_type=form)


def _decode(body: bytes, encoding: str, form: str, limit: int) -> Export:
    """Inflate, decode and map, all before anything is stored (a worker thread's job)."""
    from toolview.server.ingest.otlp_decode import (
        decode_spans,  # protobuf: on the first export only
    )

    return map_export(decode_spans(inflate(body, encoding, limit), form))


async def _store(state: ServerState, export: Export) -> list[str]:
    """Append each thread's spans in one write, each span once (its key); why any was refused."""
    keyed: dict[str, list[Keyed]] = {}
    for thread_id, span in export.mapped:
        keyed.setdefault(thread_id, []).append((span.key, span.observations))
    refused = []
    for thread_id in export.thread_ids():
        await state.log.create_thread(thread_id)
        outcomes = await state.log.append_each(thread_id, keyed.get(thread_id, []))
        # the same span id sent again with other content: refused, the others stored
        refused += [str(o) for o in outcomes if isinstance(o, KeyConflict)]
    return refused


routes = [Route(OTLP_PATH, post_traces, methods=["POST"])]
