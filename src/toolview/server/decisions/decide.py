"""A person's decision on a waiting call: the one write path a browser's person drives.

``POST /api/threads/{id}/calls/{call}/decision`` appends one ``tool-decision``
to the log, and only for a call the thread's ledger holds ``needs_input``: a
call that no longer waits (decided already, settled, or never asked) gets
``409`` and nothing is written. The check and the append happen under one
lock, so two decisions sent at once cannot both pass the check; the ``Thread``
fold refuses a second decision anyway (``contract.call_state``).

Who may decide is the guards' rule for every write (bearer token, same
origin, a JSON body type: ``server.guard``) plus one of its own: a server
without a token takes decisions only when it listens on loopback alone
(``DecisionGate``). The receipt's ``by``, ``via`` and ``at`` are what the
server saw, never what the client claims. An ``Idempotency-Key`` makes a retry
safe: the same key again answers the receipt already stored.

``server.waiting`` lists what waits; ``GET .../calls/{call}/decision`` lets a
waiting process (a hook) wait for the decision, a long poll up to ``timeout``.
An ``answer`` to a call that waits with an elicitation's form must fit it
(``contract.elicitation``): one that does not is 400, and nothing is written.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Final

import msgspec
from starlette.convertors import StringConvertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.contract import CallEntry, Thread, ToolDecision
from toolview.contract.elicitation import answer_problem, schema_problem
from toolview.contract.moments import format_at
from toolview.contract.observations import Decision
from toolview.server.decisions import waiting
from toolview.server.errors import ApiError
from toolview.server.guard.decision_gate import DecisionGate
from toolview.server.ingest.batch import BadBatch, BodyTooLarge, idempotency_key, read_body
from toolview.server.params import query_int, thread_or_404
from toolview.server.state import server_state
from toolview.wire.memo import redact_observation

__all__ = ["DECISION_BODY_LIMIT", "DecisionGate", "routes"]

DECISION_BODY_LIMIT: Final = 64 * 1024
_WAIT_LIMIT: Final = 600  # seconds a waiting process may hold one poll open


class DecisionBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a client sends: the decision, and an optional message or answer."""

    decision: Decision
    message: str | msgspec.UnsetType = msgspec.UNSET
    answer: dict[str, object] | msgspec.UnsetType = msgspec.UNSET


async def post_decision(request: Request) -> Response:
    """``POST /api/threads/{id}/calls/{call}/decision``: 201 and the receipt, or 409 / 403."""
    gate: DecisionGate = request.app.state.decisions
    refused = gate.refusal(request.scope)
    if refused is not None:
        raise ApiError(403, refused)
    thread_id = await thread_or_404(request)
    call_id: str = request.path_params["call_id"]
    try:
        key = idempotency_key(request)
        body = msgspec.json.decode(await read_body(request, DECISION_BODY_LIMIT), type=DecisionBody)
    except BodyTooLarge as exc:
        raise ApiError(413, str(exc)) from exc
    except (BadBatch, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ApiError(400, str(exc)) from exc
    async with gate.lock:  # the check and the append, with no other decision between
        entry, state = await _call(request, thread_id, call_id)
        stored = entry.decision if entry is not None else None
        if stored is not None and key is not None and stored.key == key:  # a retry: answered
            return _receipt(request, stored, 200, {"idempotent-replayed": "true"})
        if state != "needs_input":
            raise ApiError(409, f"call {call_id[:80]!r} does not wait for a decision ({state})")
        refused = _unfit(entry, body)
        if refused is not None:
            raise ApiError(400, refused)
        client = request.client.host if request.client is not None else msgspec.UNSET
        decision = ToolDecision(
            tool_call_id=call_id,
            decision=body.decision,
            message=body.message,
            answer=body.answer,
            by=gate.who(request.scope),
            via=client,
            key=key if key is not None else msgspec.UNSET,
            at=format_at(datetime.now(UTC)),
        )
        await server_state(request).log.append(thread_id, [decision])
    return _receipt(request, decision, 201)


async def get_decision(request: Request) -> Response:
    """``GET .../calls/{call}/decision?timeout=S``: the receipt once decided, else 204 at timeout.

    A long poll: it answers as soon as a decision is in the log. A call that
    no longer waits without a decision (its result came, its run ended) is 409.
    """
    thread_id = await thread_or_404(request)
    call_id: str = request.path_params["call_id"]
    try:
        timeout = query_int(request, "timeout", 30, 0, _WAIT_LIMIT)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    state = server_state(request)
    deadline = time.monotonic() + timeout
    while True:
        projection = await state.projections.current(thread_id)
        async with projection.lock:
            seq = projection.seq
            entry, now = _read(projection.thread, call_id)
        if entry is not None and entry.decision is not None:
            return _receipt(request, entry.decision, 200)
        if now == "unknown":
            raise ApiError(404, f"no call {call_id[:80]!r} in this thread")
        if now != "needs_input":
            raise ApiError(409, f"call {call_id[:80]!r} was settled without a decision ({now})")
        left = deadline - time.monotonic()
        if left <= 0 or not await state.log.wait(thread_id, seq, left):
            return Response(status_code=204)


def _unfit(entry: CallEntry | None, body: DecisionBody) -> str | None:
    """Why an ``answer`` does not fit the form the call waits with (an elicitation's schema)."""
    asked = entry.waiting.schema if entry is not None and entry.waiting is not None else None
    if body.decision != "answer" or not isinstance(asked, dict) or schema_problem(asked):
        return None
    answer = body.answer if isinstance(body.answer, dict) else {}
    return answer_problem(asked, answer)


async def _call(request: Request, thread_id: str, call_id: str) -> tuple[CallEntry | None, str]:
    projection = await server_state(request).projections.current(thread_id)
    async with projection.lock:
        return _read(projection.thread, call_id)


def _read(thread: Thread, call_id: str) -> tuple[CallEntry | None, str]:
    """The call and its ledger state (``unknown``: the thread has not seen it)."""
    entry = thread.call(call_id)
    return entry, (thread.state(entry) if entry is not None else "unknown")


def _receipt(
    request: Request, decision: ToolDecision, status: int, headers: dict[str, str] | None = None
) -> Response:
    """The receipt as the client sees it: redacted like everything the server answers."""
    shown = redact_observation(decision, server_state(request).redactor)
    return JSONResponse({"decision": msgspec.to_builtins(shown)}, status, headers=headers)


async def decision(request: Request) -> Response:
    """One route for both methods, so a 405 lists both in ``Allow``."""
    return await (post_decision if request.method == "POST" else get_decision)(request)


class _CallId(StringConvertor):
    """A call id as the server decoded it: any characters, ``/`` and line breaks included."""

    regex = "(?s:.+)"


register_url_convertor("call", _CallId())

routes = [
    *waiting.routes,
    # {call_id:call}: an id may hold "/" (sent as %2F, which the server decodes before routing)
    Route(
        "/api/threads/{thread_id}/calls/{call_id:call}/decision",
        decision,
        methods=["GET", "POST"],
    ),
]
