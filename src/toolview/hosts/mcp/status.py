"""Whether an MCP result is final, and whether it is an error, read strictly.

``isError`` absent means false; any non-boolean value is malformed, so the
result is shown as an error *with a note* rather than coerced. A ``resultType``
other than ``complete`` (``input_required``, a task) means the call is still
open: a partial result, never a final one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolview.contract.jsontext import MISSING, compact_json

__all__ = ["read_completion", "read_is_error"]


def read_is_error(raw: Mapping[str, Any], notes: list[str]) -> bool:
    """``isError`` as a boolean; a malformed value counts as an error and adds a note."""
    value = raw.get("isError", MISSING)
    if value is MISSING:
        return False
    if isinstance(value, bool):
        return value
    notes.append(f"isError is {_short(value)}, not a boolean: shown as an error")
    return True


def read_completion(raw: Mapping[str, Any], notes: list[str]) -> tuple[bool, list[str]]:
    """Whether the call is complete, and status lines for the text when it is not."""
    result_type = raw.get("resultType", MISSING)
    task = raw.get("task")
    if result_type is MISSING or result_type == "complete":
        if "content" not in raw and isinstance(task, Mapping):
            return False, [_task_line(task)]
        return True, []
    if result_type == "input_required":
        return False, [_input_line(raw.get("inputRequests"))]
    if isinstance(result_type, str):
        lines = [f"[not complete yet: resultType {result_type!r}]"]
        if isinstance(task, Mapping):
            lines.append(_task_line(task))
        return False, lines
    notes.append(f"resultType is {_short(result_type)}, not a string: treated as complete")
    return True, []


def _input_line(requests: object) -> str:
    line = "[input required: the server needs more input before this call can complete"
    if isinstance(requests, Mapping) and requests:
        names = ", ".join(str(key) for key in list(requests)[:10])
        line += f" ({len(requests)} request{'s' if len(requests) != 1 else ''}: {names})"
    return line + "]"


def _task_line(task: Mapping[str, Any]) -> str:
    task_id, status = task.get("taskId"), task.get("status")
    line = f"[running as a task {_short(task_id)}, status {_short(status)}"
    message = task.get("statusMessage")
    if isinstance(message, str) and message:
        line += f": {message}"
    return line + "]"


def _short(value: object) -> str:
    text = compact_json(value)
    return text if len(text) <= 60 else text[:60] + "…"
