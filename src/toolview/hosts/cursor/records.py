"""The Cursor agent stream-json event types this reader knows, as ``toolview doctor``
counts them.

Why a list of its own: Cursor publishes the stream's events
(cursor.com/docs/cli/reference/output-format): ``system`` (``init``), ``user``,
``assistant``, ``tool_call`` (``started``/``completed``) and ``result``;
``thinking`` (``delta``/``completed``) is described by community parsers only.
Every one is drawn; any other type is said once as a note, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["KNOWN_RECORDS", "MAPPED", "record_type"]

MAPPED: Final = frozenset({"system", "user", "assistant", "thinking", "tool_call", "result"})
KNOWN_RECORDS: Final = MAPPED


def record_type(record: Mapping[str, object]) -> str | None:
    """An event's type (``tool_call``), or None when it has none."""
    kind = record.get("type")
    return kind if isinstance(kind, str) else None
