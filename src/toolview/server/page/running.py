"""What the page says is running: the status line and the running calls, from the ledger.

Why a route: the live page used to decide which calls run from the frames it
saw (a tool-call started one, a result or a run's end stopped it), a second
state machine beside the server's call ledger, and the two disagreed (a run
ending closed another open run's calls; a run starting again left its calls
aborted on the page; output after a run's end made an aborted call run
again). Now the page asks ``GET /api/threads/{id}/running`` after a frame
that can change a call's status and draws what it is sent: the status line
(``status_words``, the words a reload renders) and the calls running now
(``Thread.pending``: the ledger's, O(open calls), never a walk). Its cost is
O(open calls) a request, whatever the thread's length.
"""

from __future__ import annotations

from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toolview.contract import CallEntry, Thread
from toolview.render.clean import clean_field
from toolview.render.html import call_element_id
from toolview.safety import redact
from toolview.safety.opaque import crossing_id
from toolview.server.params import thread_or_404
from toolview.server.state import server_state

__all__ = [
    "Running",
    "pending_calls",
    "pending_ids",
    "routes",
    "running_now",
    "status_line",
    "status_words",
]

_NAME_CHARS: Final = 100


class Running(msgspec.Struct, frozen=True):
    """What ``/running`` sends: the seq it holds, the status line, the running calls.

    ``running``: ``{element id: toolCallId}`` of the thread's own calls
    running now, each id as the frames carry it (``pending_ids``).
    """

    seq: int
    line: str
    running: dict[str, str]


def pending_calls(thread: Thread) -> list[CallEntry]:
    """The calls still waiting for their result: the ledger's ``pending``, O(open calls)."""
    return thread.pending()


def _crossing_ids(pending: list[CallEntry]) -> dict[str, str]:
    return {call_element_id(e.tool_call_id): crossing_id(e.tool_call_id, redact) for e in pending}


def pending_ids(pending: list[CallEntry]) -> str:
    """``{element id: toolCallId}`` of pending calls, as JSON for the live script.

    The script needs a call's id to fetch its fragment when the run ends. Each
    id is the one the frames carry (``crossing_id``): an id that redaction would
    change is its opaque id, never spelled out in the DOM.
    """
    return msgspec.json.encode(_crossing_ids(pending)).decode()


def status_words(pending: list[CallEntry], calls: int) -> str:
    """The status line of a thread of ``calls`` calls, ``pending`` of them running.

    Tool names are redacted, cleaned and kept to one line, as in a call's header.
    """
    running = [clean_field(redact(e.tool_name), _NAME_CHARS) for e in pending]
    if running:
        return "running " + ", ".join(running)
    return f"{calls} call{'' if calls == 1 else 's'}, none running"


def status_line(thread: Thread, pending: list[CallEntry] | None = None) -> str:
    """ "running <tool>" while calls run, else how many calls the thread holds."""
    shown = pending_calls(thread) if pending is None else pending
    return status_words(shown, len(thread.calls()))


def running_now(thread: Thread, calls: int, seq: int) -> Running:
    """What the live page is sent of ``thread`` (``calls`` calls, read up to ``seq``)."""
    pending = thread.pending()
    return Running(seq, status_words(pending, calls), _crossing_ids(pending))


async def running(request: Request) -> Response:
    """``GET /api/threads/{id}/running``: the status line and the calls running now (JSON)."""
    thread_id = await thread_or_404(request)
    projection = await server_state(request).projections.current(thread_id)
    async with projection.lock:  # a worker may be folding into the thread otherwise
        sent = running_now(projection.thread, projection.tally.calls, projection.seq)
    body = msgspec.json.encode(sent)
    return Response(body, media_type="application/json", headers={"cache-control": "no-store"})


routes = [Route("/api/threads/{thread_id}/running", running, methods=["GET"])]
