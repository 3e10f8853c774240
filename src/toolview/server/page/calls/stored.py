"""``GET …/calls/{callId}/stored``: an output stored apart, read whole from its session's folder.

Why: Claude Code keeps an output over ~30,000 characters in
``<session>/tool-results/<id>.txt``; when that file was not there as the
session was read (or was cut), the log holds only its preview, and the page
offers the whole output on demand. What is read is never what the request or
the record *says*: the thread names the session (``claude-<session id>``),
the session's folder is looked for only under the folders this server watches
(``serve --watch``), and inside it only ``tool-results/<name>`` is opened,
``name`` being the last part of the path the session record gave
(``hosts.claude_code.stored``: no link followed at any step, a regular file
only, no FIFO waited on). The file is read up to ``STORED_ROUTE_BYTES`` (a
longer one is cut and says so), redacted whole (no window edge splits a
secret), then handed over a window at a time like ``/output``.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toolview.contract import ToolResult
from toolview.hosts.claude_code.stored import NOT_HERE, NotRead, StoredOutputs
from toolview.server.errors import ApiError
from toolview.server.offload import in_worker
from toolview.server.page.calls.data import call_entry, output_chunk, window_params
from toolview.wire.follow import Redactor

__all__ = ["STORED_ROUTE_BYTES", "read_stored", "routes", "session_folder"]

STORED_ROUTE_BYTES: Final = 16 * 1024 * 1024
"""The most of one stored file a request reads (and redacts) whole; the rest is said cut."""
# a Claude Code thread: ``claude-<session id>`` (``.N``: a later version of the same file)
_THREAD: Final = re.compile(r"claude-([0-9A-Fa-f-]{8,64})(?:\.[0-9]{1,6})?")
_NO_FOLDER: Final = NotRead("its session's folder is not under a folder this server watches")


def session_folder(watched: tuple[Path, ...], thread_id: str) -> Path | None:
    """The folder of the Claude Code session ``thread_id`` reads, under a watched folder.

    A watched folder may be ``~/.claude/projects`` (sessions one level down) or
    one project's folder; the session id is hex and dashes only, so it globs
    nothing but itself. ``None``: not a Claude Code thread, or not found here.
    """
    match = _THREAD.fullmatch(thread_id)
    if match is None:
        return None
    session = match[1]
    for root in watched:
        for found in (root / f"{session}.jsonl", *sorted(root.glob(f"*/{session}.jsonl"))):
            if found.is_file():
                return found.with_suffix("")
    return None


def read_stored(folder: Path | None, recorded: str, redactor: Redactor) -> str | NotRead:
    """The stored file ``recorded`` names in ``folder``'s ``tool-results/``, redacted, bounded."""
    if folder is None:
        return _NO_FOLDER
    text = StoredOutputs(folder, limit=STORED_ROUTE_BYTES)(recorded)
    return text if isinstance(text, NotRead) else redactor.text(text)


def _read(watched: tuple[Path, ...], thread_id: str, recorded: str, redactor: Redactor) -> object:
    """A worker's job: find the session's folder (a listing), then read the file there."""
    return read_stored(session_folder(watched, thread_id), recorded, redactor)


async def call_stored(request: Request) -> Response:
    """``GET /api/threads/{id}/calls/{callId}/stored?offset=&limit=``: characters of the file."""
    offset, limit = window_params(request)
    state, entry, _ = await call_entry(request)
    result = entry.result
    if not isinstance(result, ToolResult) or isinstance(result.stored, msgspec.UnsetType):
        raise ApiError(404, "this call's output was not stored apart")
    thread_id: str = request.path_params["thread_id"]
    read = partial(_read, state.watched, thread_id, result.stored.path, state.redactor)
    text = await in_worker(state.workers, read)
    if text == _NO_FOLDER:
        raise ApiError(404, "its session's folder is not under a folder this server watches")
    if text == NOT_HERE:
        raise ApiError(404, "the stored output is not here")
    if not isinstance(text, str):
        assert isinstance(text, NotRead)
        raise ApiError(403, f"the stored output is not read: {text.why}")
    return JSONResponse(output_chunk(text, offset, limit, "chars"))


routes = [
    Route("/api/threads/{thread_id}/calls/{call_id}/stored", call_stored, methods=["GET"]),
]
