"""The Gemini CLI chat-file record kinds this reader knows, as ``toolview doctor`` counts them.

Why kinds by shape, not one ``type`` field: a chat file is a change log whose
lines are told apart by their keys, as Gemini CLI 0.61.0's own reader does
(``chatRecordingService``: ``isRewindRecord``, ``isMessageRecord``,
``isMetadataUpdateRecord``, ``isPartialMetadataRecord``). A message is named
by its ``type`` (the five ``recordMessage`` writes); the others by their key:
``$set``, ``$rewindTo``, and ``metadata`` (the session's first line, or the
older ``.json`` whole). A line of no known shape is named by its keys, so
``doctor`` shows what a later version added.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["KNOWN_RECORDS", "MESSAGES", "VERIFIED", "record_type"]

VERIFIED: Final = "0.61.0"
MESSAGES: Final = frozenset({"user", "gemini", "info", "warning", "error"})
KNOWN_RECORDS: Final = MESSAGES | {"$set", "$rewindTo", "metadata"}


def record_type(record: Mapping[str, object]) -> str | None:
    """``$rewindTo``, a message's ``type``, ``$set``, ``metadata``, or ``{its keys}``; the
    order is the mapper's (``GeminiMapper.feed``)."""
    if isinstance(record.get("$rewindTo"), str):
        return "$rewindTo"
    if isinstance(record.get("id"), str):
        kind = record.get("type")
        return kind if isinstance(kind, str) else "message"
    if isinstance(record.get("$set"), Mapping):
        return "$set"
    if isinstance(record.get("sessionId"), str):
        return "metadata"
    return "{" + ", ".join(sorted(record)[:5]) + "}"
