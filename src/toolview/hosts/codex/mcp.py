"""MCP tool calls in a rollout, mapped by the MCP host; Codex's tool search.

Codex calls an MCP tool as a function in the namespace ``mcp__<server>`` and
records the server's ``CallToolResult`` whole in the end record (0.171: an
``item_completed`` ``McpToolCall`` item with ``result``; older: an
``mcp_tool_call_end`` event with ``result: {"Ok": …} | {"Err": "…"}``). That
result goes through ``toolview.hosts.mcp.map_result``, the one MCP mapping, so
text, images, structured content and errors look as they do from any MCP host.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolview.contract import ToolResult
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.mcp.result_map import map_result

__all__ = ["is_mcp_end", "mcp_result", "search_text"]


def is_mcp_end(end: Mapping[str, object]) -> bool:
    """Whether an end record is an MCP call's (it carries the server's result)."""
    return end.get("type") == "McpToolCall" or "invocation" in end


def mcp_result(
    call_id: str, tool_name: str, end: Mapping[str, object], at: str | None
) -> ToolResult | None:
    """The MCP host's result for the call; None when the record holds no result."""
    raw = end.get("result")
    if isinstance(raw, Mapping) and "Err" in raw and len(raw) == 1:
        failure = raw["Err"]
        text = failure if isinstance(failure, str) else str(as_map(failure).get("message", ""))
        return ToolResult(
            tool_call_id=call_id,
            tool_name=tool_name,
            text=text,
            complete=True,
            is_error=True,
            at=msgspec.UNSET if at is None else at,
        )
    if isinstance(raw, Mapping) and "Ok" in raw and len(raw) == 1:
        raw = raw["Ok"]
    if not isinstance(raw, Mapping):
        return None
    mapped = map_result(dict(raw), tool_call_id=call_id, tool_name=tool_name)
    return mapped if at is None else msgspec.structs.replace(mapped, at=at)


def search_text(tools: object) -> str:
    """What a ``tool_search`` found: one ``namespace.tool`` (or ``tool``) per line."""
    found: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        tool = as_map(tool)
        name = as_str(tool.get("name")) or "?"
        inner = tool.get("tools")
        if isinstance(inner, list):
            found += [f"{name}.{as_str(as_map(t).get('name')) or '?'}" for t in inner]
        else:
            found.append(name)
    return "\n".join(found) if found else "no tools found"
