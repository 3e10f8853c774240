"""Progress notifications of a running call → partial ``tool-result``s.

``tool-result.text`` is ACCUMULATED: each partial carries every progress line
so far ("progress 3/10 copying…"), or the latest window of them with an exact
truncation count, so a consumer replaces its display rather than appending.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, ToolResult, Truncation
from toolview.contract.blocks import BLOCKS_KIND, BlocksProps, Progress, TextBlock
from toolview.contract.jsontext import compact_json

__all__ = ["PROGRESS_WINDOW", "ProgressLog"]

PROGRESS_WINDOW: Final = 200


class ProgressLog:
    """The progress of one call, accumulated; memory bounded by ``window`` lines."""

    def __init__(self, tool_call_id: str, tool_name: str, *, window: int = PROGRESS_WINDOW) -> None:
        self.tool_call_id = tool_call_id or "mcp-call"
        self.tool_name = tool_name or "mcp-tool"
        self._lines: deque[str] = deque(maxlen=max(1, window))
        self._total_lines = 0

    def update(self, progress: object, total: object = None, message: object = None) -> ToolResult:
        """Record one notification and return the partial result it makes; never raises."""
        latest = _progress(progress, total, message)
        self._lines.append(_line(progress, total, message))
        self._total_lines += 1
        text = "\n".join(self._lines)
        props = BlocksProps(blocks=[TextBlock(text=text)], progress=latest)
        truncated = (
            Truncation(shown=len(self._lines), total=self._total_lines, unit="lines")
            if self._total_lines > len(self._lines)
            else msgspec.UNSET
        )
        descriptor = Descriptor(kind=BLOCKS_KIND, props=props, truncated=truncated)
        return ToolResult(
            tool_call_id=self.tool_call_id,
            tool_name=self.tool_name,
            text=text,
            complete=False,
            is_error=False,
            descriptor=descriptor,
        )

    def update_from_params(self, params: object) -> ToolResult:
        """Record a raw ``notifications/progress`` ``params`` object."""
        fields = params if isinstance(params, Mapping) else {}
        return self.update(fields.get("progress"), fields.get("total"), fields.get("message"))


def _line(progress: object, total: object, message: object) -> str:
    line = "progress " + (_number(progress) or f"? (malformed: {compact_json(progress)[:40]})")
    if total is not None:
        line += "/" + (_number(total) or f"? (malformed total: {compact_json(total)[:40]})")
    if isinstance(message, str) and message:
        line += f" {message}"
    return line


def _progress(progress: object, total: object, message: object) -> Progress | msgspec.UnsetType:
    if not _is_number(progress):
        return msgspec.UNSET
    assert isinstance(progress, int | float)
    try:
        return Progress(
            progress=float(progress),
            total=float(total)
            if isinstance(total, int | float) and _is_number(total)
            else msgspec.UNSET,
            message=message if isinstance(message, str) else msgspec.UNSET,
        )
    except OverflowError:  # an integer too large for a float: the text line still has it
        return msgspec.UNSET


def _is_number(value: object) -> bool:
    """A finite JSON number (``inf`` cannot cross the wire; a bool is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return isinstance(value, int) or math.isfinite(value)


def _number(value: object) -> str | None:
    if not _is_number(value):
        return None
    assert isinstance(value, int | float)
    try:
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    except ValueError:  # an integer with more digits than Python will print
        return "(a number too long to print)"
