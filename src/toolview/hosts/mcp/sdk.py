"""SDK models (the ``mcp`` package) → the one raw mapping in ``result_map``.

A model is dumped to its wire JSON (camelCase aliases, ``None`` left out) and
mapped like any raw result, so the SDK path and the raw path cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolview.contract import ToolResult
from toolview.contract.mcp_app import McpAppProps
from toolview.hosts.mcp.result_map import DEFAULT_CALL_ID, DEFAULT_TOOL_NAME, map_result

if TYPE_CHECKING:  # only annotations: a model arrives made; pydantic costs start-up
    from pydantic import BaseModel

__all__ = ["map_sdk_result", "model_to_wire"]


def model_to_wire(model: BaseModel) -> dict[str, Any]:
    """The wire JSON of an SDK model, as a server would have sent it."""
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def map_sdk_result(
    result: BaseModel,
    *,
    tool_call_id: str = DEFAULT_CALL_ID,
    tool_name: str = DEFAULT_TOOL_NAME,
    tool: BaseModel | None = None,
    app: McpAppProps | None = None,
    app_notes: Sequence[str] = (),
) -> ToolResult:
    """Map an SDK ``CallToolResult`` (or ``InputRequiredResult``, or a task result).

    ``tool`` is the SDK ``Tool`` the result came from, if known: its ``_meta``
    may name an interactive UI.
    """
    try:
        raw: object = model_to_wire(result)
    except Exception as exc:  # a model that cannot serialize still gets a visible result
        raw = f"unserializable {type(result).__name__}: {type(exc).__name__}"
    tool_meta = getattr(tool, "meta", None) if tool is not None else None
    return map_result(
        raw,
        tool_call_id=tool_call_id,
        tool_name=tool_name,
        tool_meta=tool_meta,
        app=app,
        app_notes=app_notes,
    )
