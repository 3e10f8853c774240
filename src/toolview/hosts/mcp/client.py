"""Call a tool on a stdio MCP server and get observations back.

Uses the ``mcp`` SDK's stdio transport and session for the handshake, then asks
for ``tools/list`` and ``tools/call`` through the session's JSON-RPC dispatcher
so the *raw* result reaches ``map_result`` — the SDK would reject a whole
result over one block of a type it does not know. A JSON-RPC error answer
becomes an error result; a server that cannot be started raises
``McpClientError`` with a message a person can act on. The SDK (and anyio)
are imported when a server is called, not with the package: reading stored
results (``toolview show``) never pays the SDK's ~0.7 s of start-up.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, TextIO

from toolview.contract import Observation, ToolCall, ToolResult
from toolview.hosts.mcp.app import read_app
from toolview.hosts.mcp.errors import error_result
from toolview.hosts.mcp.progress import ProgressLog
from toolview.hosts.mcp.result_map import map_result

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

__all__ = ["DEFAULT_TIMEOUT", "McpClientError", "call_tool", "list_tools"]

DEFAULT_TIMEOUT: Final = 300.0
_MAX_PAGES: Final = 50

ObservationSink = Callable[[Observation], None]


class McpClientError(RuntimeError):
    """The server could not be started or spoke no MCP; the message says which."""


async def list_tools(
    server: Sequence[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    errlog: TextIO | None = None,
    cwd: str | None = None,
) -> list[dict[str, Any]]:
    """The server's tools as raw JSON objects (``name``, ``description``, ``_meta``…)."""
    async with _connect(server, timeout, errlog, cwd) as dispatcher:
        return await _raw_tools(dispatcher)


async def call_tool(
    server: Sequence[str],
    tool: str,
    arguments: dict[str, Any] | None = None,
    *,
    tool_call_id: str | None = None,
    on_observation: ObservationSink | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    errlog: TextIO | None = None,
    cwd: str | None = None,
) -> list[Observation]:
    """Call ``tool``: its ``tool-call``, progress partials and final ``tool-result``."""
    from mcp import MCPError

    call_id = tool_call_id or f"mcp-{uuid.uuid4().hex[:12]}"
    observations: list[Observation] = []

    def emit(observation: Observation) -> None:
        observations.append(observation)
        if on_observation is not None:
            on_observation(observation)

    emit(ToolCall(tool_call_id=call_id, tool_name=tool, args=dict(arguments or {})))
    async with _connect(server, timeout, errlog, cwd) as dispatcher:
        tool_meta = await _tool_meta(dispatcher, tool)
        log = ProgressLog(call_id, tool)

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            emit(log.update(progress, total, message))

        params = {"name": tool, "arguments": dict(arguments or {})}
        try:
            raw = await dispatcher.send_raw_request(
                "tools/call", params, {"on_progress": on_progress, "timeout": timeout}
            )
            app, notes = await read_app(dispatcher, tool_meta, arguments or {}, raw)
            result: ToolResult = map_result(
                raw,
                tool_call_id=call_id,
                tool_name=tool,
                tool_meta=tool_meta,
                app=app,
                app_notes=notes,
            )
        except MCPError as exc:
            result = error_result(exc.error.model_dump(mode="json"), call_id, tool)
    emit(result)
    return observations


@asynccontextmanager
async def _connect(
    server: Sequence[str], timeout: float, errlog: TextIO | None, cwd: str | None
) -> AsyncIterator[JSONRPCDispatcher[Any]]:
    """A started, initialized session; its dispatcher sends raw requests."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

    if not server or not server[0]:
        raise McpClientError("no MCP server command given (put it after `--`)")
    params = StdioServerParameters(command=server[0], args=list(server[1:]), cwd=cwd)
    try:
        with anyio.fail_after(timeout):
            async with stdio_client(params, errlog=_errlog(errlog)) as (read, write):
                dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(read, write)
                async with ClientSession(dispatcher=dispatcher) as session:
                    await _initialize(session, server[0])
                    yield dispatcher
    except McpClientError:
        raise
    except TimeoutError:
        raise McpClientError(
            f"the MCP server {server[0]!r} did not answer within {timeout:g}s"
        ) from None
    except OSError as exc:
        raise McpClientError(f"cannot start the MCP server {server[0]!r}: {exc}") from None
    except BaseExceptionGroup as group:
        raise _from_group(group, server[0]) from None


def _errlog(errlog: TextIO | None) -> TextIO:
    """Where the server's stderr goes: a real file (a subprocess needs a descriptor)."""
    for stream in (errlog, sys.stderr, sys.__stderr__):
        try:
            if stream is not None and stream.fileno() >= 0:
                return stream
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
            continue
    return open(os.devnull, "w")  # lives as long as the process


async def _initialize(session: ClientSession, name: str) -> None:
    from mcp import MCPError

    try:
        await session.initialize()
    except MCPError as exc:
        raise McpClientError(f"the MCP server {name!r} failed to start: {exc.message}") from None
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        raise McpClientError(f"the MCP server {name!r} failed its handshake ({reason})") from None


async def _raw_tools(dispatcher: JSONRPCDispatcher[Any]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    cursor: object = None
    for _ in range(_MAX_PAGES):
        page = await dispatcher.send_raw_request("tools/list", {"cursor": cursor} if cursor else {})
        listed = page.get("tools")
        if isinstance(listed, list):
            tools.extend(tool for tool in listed if isinstance(tool, dict))
        cursor = page.get("nextCursor")
        if not isinstance(cursor, str) or not cursor:
            break
    return tools


async def _tool_meta(dispatcher: JSONRPCDispatcher[Any], tool: str) -> object:
    """The tool's ``_meta`` from ``tools/list`` (an MCP Apps UI lives there), if any."""
    from mcp import MCPError

    try:
        tools = await _raw_tools(dispatcher)
    except MCPError:
        return None
    return next((entry.get("_meta") for entry in tools if entry.get("name") == tool), None)


def _from_group(group: BaseExceptionGroup[Any], name: str) -> BaseException:
    """The first leaf of an exception group, reworded when it is one we expect."""
    leaf: BaseException = group
    while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
        leaf = leaf.exceptions[0]
    if isinstance(leaf, McpClientError | KeyboardInterrupt):
        return leaf
    if isinstance(leaf, OSError):
        return McpClientError(f"cannot start the MCP server {name!r}: {leaf}")
    return McpClientError(f"the MCP server {name!r} failed: {type(leaf).__name__}: {leaf}")
