"""The Codex rollout record types this reader knows, as ``toolview doctor`` counts them.

Why two levels: a rollout line is ``{type, payload}``, and two of its types
(``response_item``, ``event_msg``) are envelopes whose payload's own ``type``
says what happened — so a record's type here is ``event_msg:token_count``,
and a bare ``session_meta`` for the others. A type not listed is one a later
Codex added: the mapper says an unknown top-level type once as a note; the
envelopes' unknown payloads are counted by ``doctor`` (the event stream also
carries UI deltas no session view needs, so a note for each would be noise).
The ignored events are the ones that repeat a response item (``agent_message``,
``exec_command_begin``, …), found in Codex 0.171.0's binary.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from toolview.hosts.codex.items import CALL_TYPES, OUTPUT_TYPES
from toolview.hosts.codex.mapper import SKIPPED_RECORDS

__all__ = ["KNOWN_RECORDS", "VERIFIED", "record_type"]

VERIFIED: Final = "0.171.0"
"""The version these record types were checked against (docs/readers.md)."""

_ENVELOPES: Final = ("response_item", "event_msg")
_ITEMS: Final = CALL_TYPES | OUTPUT_TYPES | {"message", "reasoning", "agent_message"}
_EVENTS_MAPPED: Final = frozenset(
    {
        *("task_started", "turn_started", "task_complete", "turn_complete", "turn_aborted"),
        *("error", "token_count", "exec_command_end", "patch_apply_end", "mcp_tool_call_end"),
        *("patch_apply_begin", "item_completed", "collab_agent_spawn_end"),
    }
)
_EVENTS_REPEATED: Final = frozenset(  # what a response item already says, or UI state
    {
        *("user_message", "agent_message", "agent_reasoning", "agent_reasoning_raw_content"),
        *("agent_reasoning_section_break", "exec_command_begin", "mcp_tool_call_begin"),
        *("web_search_begin", "web_search_end", "patch_apply_updated", "turn_diff"),
        *("thread_settings_applied", "plan_update", "context_compacted", "item_started"),
        *("entered_review_mode", "exited_review_mode", "collab_agent_spawn_begin"),
        *("session_configured", "stream_error", "thread_rolled_back"),
    }
)
KNOWN_RECORDS: Final = frozenset(
    {
        "session_meta",
        "turn_context",
        *SKIPPED_RECORDS,
        *(f"response_item:{kind}" for kind in (*_ITEMS, "web_search_call")),
        *(f"event_msg:{kind}" for kind in _EVENTS_MAPPED | _EVENTS_REPEATED),
    }
)


def record_type(record: Mapping[str, object]) -> str | None:
    """``event_msg:token_count`` for an envelope, else the record's ``type``; a legacy
    bare item (before the envelope) is the ``response_item`` it would be now."""
    kind, payload = record.get("type"), record.get("payload")
    if payload is None and kind in _ITEMS | {"web_search_call"}:
        return f"response_item:{kind}"
    if kind in _ENVELOPES and isinstance(payload, Mapping):
        inner = payload.get("type")
        return f"{kind}:{inner}" if isinstance(inner, str) else str(kind)
    return kind if isinstance(kind, str) else None
