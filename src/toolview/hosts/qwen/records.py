"""The Qwen Code chat record types this reader knows, as ``toolview doctor`` counts them.

Why ``system:<subtype>``: Qwen Code 0.24.4 writes four record ``type``\\ s
(its ``RECORD_TYPES``: user, assistant, tool_result, system) and names a
``system`` record's kind in ``subtype`` (its ``KNOWN_RECORD_SUBTYPES``, 34 of
them). The reader maps the first three and passes over the system kinds in
``SKIPPED_SUBTYPES`` on purpose (bookkeeping, nothing of the conversation);
any other subtype is said once as a note and counted by ``doctor``, so a
kind that may carry the conversation (``rewind``, ``mid_turn_user_message``)
is never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["KNOWN_RECORDS", "MAPPED", "SKIPPED_SUBTYPES", "VERIFIED", "record_type"]

VERIFIED: Final = "0.24.4"
MAPPED: Final = frozenset({"user", "assistant", "tool_result"})
SKIPPED_SUBTYPES: Final = frozenset(
    {"ui_telemetry", "attribution_snapshot", "chat_compression", "slash_command", "at_command"}
)
KNOWN_RECORDS: Final = MAPPED | {f"system:{kind}" for kind in SKIPPED_SUBTYPES}


def record_type(record: Mapping[str, object]) -> str | None:
    """``system:<subtype>`` for a system record, else the record's ``type``."""
    kind = record.get("type")
    if kind == "system":
        subtype = record.get("subtype")
        return f"system:{subtype if isinstance(subtype, str) else '?'}"
    return kind if isinstance(kind, str) else None
