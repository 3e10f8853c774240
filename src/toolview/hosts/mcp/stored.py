"""Stored MCP results → observations, for ``toolview show --from mcp``.

The stored form is a JSON array, one JSON value, or JSON Lines, of records. A
record is a raw ``CallToolResult``; or a call record
``{"tool", "arguments"?, "result" | "error", "id"?, "progress"?, "toolMeta"?}``;
or a JSON-RPC response ``{"jsonrpc", "id", "result"}``. Each record gives a
``tool-call``, its progress partials, and its ``tool-result``. Input that is not
JSON at all is an error naming the line; a record of the wrong shape is shown
as a visible error result instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from toolview.contract import Observation, ToolCall, ToolResult
from toolview.contract.jsontext import MISSING, decode_json
from toolview.hosts.mcp.errors import error_result
from toolview.hosts.mcp.progress import ProgressLog
from toolview.hosts.mcp.result_map import DEFAULT_TOOL_NAME, map_result

__all__ = ["StoredResultsError", "load_observations", "sniff"]

_SNIFF_BYTES: Final = 1024 * 1024


class StoredResultsError(ValueError):
    """Stored MCP results that are not JSON; the message names the line."""


def load_observations(data: bytes) -> list[Observation]:
    """Every observation in stored MCP results; raises ``StoredResultsError`` on non-JSON."""
    observations: list[Observation] = []
    for number, record in enumerate(_records(data), start=1):
        observations.extend(_from_record(record, number))
    return observations


def sniff(data: bytes) -> bool:
    """Whether ``data`` looks like stored MCP results (not observations, not pi events)."""
    head = data[:_SNIFF_BYTES].lstrip()
    if head[:1] not in (b"[", b"{"):
        return False
    whole = decode_json(data) if len(data) <= _SNIFF_BYTES else MISSING
    if isinstance(whole, list):
        return bool(whole) and _looks_like(whole[0])
    if whole is not MISSING:
        return _looks_like(whole)
    return _looks_like(decode_json(head.split(b"\n", 1)[0]))


def _records(data: bytes) -> list[object]:
    whole = decode_json(data)
    if isinstance(whole, list):
        return whole
    if whole is not MISSING:
        return [whole]
    records: list[object] = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(msgspec.json.decode(line))
        except (msgspec.DecodeError, RecursionError, UnicodeError) as exc:
            raise StoredResultsError(f"line {number}: not JSON ({exc})") from None
    return records


def _looks_like(record: object) -> bool:
    if not isinstance(record, Mapping) or "kind" in record or "type" in record:
        return False
    if "tool" in record and ("result" in record or "error" in record):
        return True
    if "jsonrpc" in record:
        return isinstance(record.get("result"), Mapping)
    return isinstance(record.get("content"), list) or "structuredContent" in record


def _from_record(record: object, number: int) -> list[Observation]:
    wrapped = isinstance(record, Mapping) and (
        ("tool" in record and ("result" in record or "error" in record)) or "jsonrpc" in record
    )
    fields: Mapping[str, Any] = record if wrapped and isinstance(record, Mapping) else {}
    call_id = _text(fields.get("id")) or f"mcp-{number}"
    tool = _text(fields.get("tool")) or DEFAULT_TOOL_NAME
    arguments = fields.get("arguments", {})
    call = ToolCall(
        tool_call_id=call_id,
        tool_name=tool,
        args=dict(arguments) if isinstance(arguments, Mapping) else {},
    )
    partials = _partials(fields.get("progress"), call_id, tool)
    if wrapped and "result" not in fields:
        result = error_result(fields.get("error"), call_id, tool)
    else:
        raw = fields["result"] if wrapped else record
        result = map_result(
            raw, tool_call_id=call_id, tool_name=tool, tool_meta=fields.get("toolMeta")
        )
    if not isinstance(arguments, Mapping):
        note = "\n[note: the stored `arguments` is not a JSON object; not shown]"
        result = msgspec.structs.replace(result, text=result.text + note)
    return [call, *partials, result]


def _partials(progress: object, call_id: str, tool: str) -> list[ToolResult]:
    if not isinstance(progress, list):
        return []
    log = ProgressLog(call_id, tool)
    return [log.update_from_params(params) for params in progress]


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
