"""``POST /v1/traces`` and ``/v1/logs``: OTLP/HTTP exports stored as observations, live.

Spans map through ``hosts.otel.map_export``, agents' log events (Claude
Code's, Codex's) through ``hosts.otel.map_log_export``; all else is shared.

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

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.hosts.otel import Export, map_export, map_log_export
from toolview.server.errors import RETRY_AFTER, ApiError
from toolview.server.ingest.batch import BodyTooLarge, read_body
from toolview.server.ingest.budget import ServerBusy
from toolview.server.ingest.otlp_body import (
    OTLP_LOGS_PATH,
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

__all__ = ["post_logs", "post_traces", "routes"]


@dataclass(frozen=True)
class _Signal:
    """What differs between ``/v1/traces`` and ``/v1/logs``: how a body maps, how to answer."""

    what: str  # "span" or "log record", for the partial success' message
    mapped: Callable[[bytes, str], Export]
    answer: Callable[[int, str, str], bytes]


def _spans(body: bytes, form: str) -> Export:
    from toolview.server.ingest.otlp_decode import decode_spans  # protobuf: on first use

    return map_export(decode_spans(body, form))


def _logs(body: bytes, form: str) -> Export:
    from toolview.server.ingest.otlp_logs_decode import decode_logs  # protobuf: on first use

    return map_log_export(decode_logs(body, form))


def _trace_answer(rejected: int, message: str, form: str) -> bytes:
    from toolview.server.ingest.otlp_decode import encode_response

    return encode_response(rejected, message, form)


def _log_answer(rejected: int, message: str, form: str) -> bytes:
    from toolview.server.ingest.otlp_logs_decode import encode_logs_response

    return encode_logs_response(rejected, message, form)


def _endpoint(signal: _Signal) -> Callable[[Request], Awaitable[Response]]:
    async def post(request: Request) -> Response:
        """``POST /v1/traces`` or ``/v1/logs``: map the export into threads; OTLP's answer."""
        state = server_state(request)
        try:
            form = body_form(request.headers)
            encoding = content_encoding(request.headers)
            with state.bodies.hold() as hold:
                body = await read_body(request, state.body_limit, hold)
                work = partial(_decode, signal, body, encoding, form, state.body_limit)
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
        first = f"; the first: {rejected[0]}" if rejected else ""
        message = f"{len(rejected)} {signal.what}(s) not shown{first}" if rejected else ""
        return Response(signal.answer(len(rejected), message, form), media_type=form)

    return post


def _decode(signal: _Signal, body: bytes, encoding: str, form: str, limit: int) -> Export:
    """Inflate, decode and map, all before anything is stored (a worker thread's job)."""
    return signal.mapped(inflate(body, encoding, limit), form)


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


post_traces = _endpoint(_Signal("span", _spans, _trace_answer))
post_logs = _endpoint(_Signal("log record", _logs, _log_answer))
routes = [
    Route(OTLP_PATH, post_traces, methods=["POST"]),
    Route(OTLP_LOGS_PATH, post_logs, methods=["POST"]),
]
