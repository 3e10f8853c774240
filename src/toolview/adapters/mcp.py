"""``rec.mcp(session)``: every ``call_tool`` of an MCP ``ClientSession``, recorded.

Why through the MCP host: a result is mapped exactly as ``toolview mcp`` maps
it (``hosts.mcp.map_sdk_result``: blocks, images, structured content, the
SDK's ``{"result": …}`` wrapping shown once), and progress notifications
become partial results (``hosts.mcp.ProgressLog``). The session is patched in
place (its ``call_tool`` only) and returned, so ``rec.mcp(session)`` is the
one line, and the caller's own ``progress_callback`` still hears everything.
A call that raises (a JSON-RPC error, a timeout, a cancellation) closes as an
error with the exception's type and message, and the exception goes on.
The server's elicitations are answered by a person (``adapters.mcp_elicit``):
call ``rec.mcp(session)`` before ``initialize()`` so the client offers them.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from toolview.adapters.mcp_elicit import answer_elicitations
from toolview.contract.mcp_app import McpAppProps
from toolview.hosts.mcp import ProgressLog, map_sdk_result
from toolview.hosts.mcp.app import app_props, app_uri
from toolview.hosts.mcp.sdk import model_to_wire
from toolview.recording.recorder import Recorder

__all__ = ["attach"]

_S = TypeVar("_S")
_PATCHED = "_toolview_recorder"
_TOOL_METAS = "_toolview_tool_metas"
Progress = Callable[[float, float | None, str | None], Awaitable[None]]


def attach(recorder: Recorder, session: _S) -> _S:
    """Record every ``session.call_tool``; returns ``session`` itself."""
    if getattr(session, _PATCHED, None) is recorder:
        return session  # attached twice: recorded once
    original = session.call_tool  # type: ignore[attr-defined]

    async def call_tool(
        name: str,
        arguments: dict[str, Any] | None = None,
        *args: Any,
        progress_callback: Progress | None = None,
        **kwargs: Any,
    ) -> Any:
        call_id = f"mcp-{uuid.uuid4().hex[:12]}"
        recorder.call(call_id, name, arguments or {})
        progress = _progress(recorder, ProgressLog(call_id, str(name)), progress_callback)
        try:
            result = await original(name, arguments, *args, progress_callback=progress, **kwargs)
        except BaseException as exc:
            recorder.error(call_id, exc)
            raise
        app, notes = await _read_app(session, str(name), arguments or {}, result)
        recorder.emit(
            map_sdk_result(
                result, tool_call_id=call_id, tool_name=str(name), app=app, app_notes=notes
            )
        )
        return result

    session.call_tool = call_tool  # type: ignore[attr-defined]
    answer_elicitations(recorder, session)
    setattr(session, _PATCHED, recorder)
    return session


async def _read_app(
    session: Any, name: str, arguments: dict[str, Any], result: Any
) -> tuple[McpAppProps | None, list[str]]:
    """The tool's MCP App read through the same session, now: a replay has no server.

    The tools' ``_meta`` is listed once a session (the app is named there); a
    server that cannot list or read leaves a note and the text, never an error.
    """
    try:
        metas = getattr(session, _TOOL_METAS, None)
        if metas is None:
            listed = await session.list_tools()
            metas = {tool.name: tool.meta for tool in listed.tools}
            setattr(session, _TOOL_METAS, metas)
        uri = app_uri(metas.get(name), getattr(result, "meta", None))
        if uri is None:
            return None, []
        read = model_to_wire(await session.read_resource(uri))
        return app_props(read, uri, arguments, model_to_wire(result))
    except Exception as exc:
        return None, [f"could not read the tool's MCP App ({type(exc).__name__})"]


def _progress(recorder: Recorder, log: ProgressLog, theirs: Progress | None) -> Progress:
    """A progress callback that records each notification, then calls the caller's own."""

    async def progress(value: float, total: float | None, message: str | None) -> None:
        recorder.emit(log.update(value, total, message))
        if theirs is not None:
            await theirs(value, total, message)

    return progress
