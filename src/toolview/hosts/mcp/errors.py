"""A JSON-RPC error in place of a result → an error ``tool-result``.

A server that cannot find a tool, or rejects its arguments, answers with a
protocol error rather than a ``CallToolResult``; a person still needs to see
that call end, and why.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolview.contract import ToolResult
from toolview.contract.jsontext import compact_json

__all__ = ["error_result", "error_text"]


def error_text(error: object) -> str:
    """``MCP error CODE: MESSAGE`` for a JSON-RPC error object (any shape)."""
    if not isinstance(error, Mapping):
        return f"MCP error (malformed error object): {compact_json(error)[:2000]}"
    code, message = error.get("code"), error.get("message")
    text = f"MCP error {compact_json(code)}: {message if isinstance(message, str) else ''}"
    data = error.get("data")
    if data is not None:
        text += f"\n{compact_json(data)[:2000]}"
    return text


def error_result(error: object, tool_call_id: str, tool_name: str) -> ToolResult:
    """The final, error ``tool-result`` for a call answered with a JSON-RPC error."""
    return ToolResult(
        tool_call_id=tool_call_id,
        tool_name=tool_name,
        text=error_text(error),
        complete=True,
        is_error=True,
    )
