"""The Copilot CLI event types this reader knows, as ``toolview doctor`` counts them.

Why a list of its own: Copilot CLI 1.0.102 declares 155 session event types
(its package's ``schemas/session-events.schema.json``); most are the CLI's own
state (MCP servers, canvases, quotas) or streaming deltas marked
``ephemeral`` and never written. The mapper draws ``MAPPED``, passes over
``SKIPPED`` on purpose, and says any other type once as a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["KNOWN_RECORDS", "MAPPED", "SKIPPED", "VERIFIED", "record_type"]

VERIFIED: Final = "1.0.102"
"""The version these record types were checked against (docs/readers.md)."""

MAPPED: Final = frozenset(
    {
        *("session.start", "session.resume", "user.message", "assistant.message"),
        *("assistant.reasoning", "tool.execution_start", "tool.execution_complete"),
        *("session.usage_record", "session.title_changed", "session.error", "session.shutdown"),
        "subagent.started",
    }
)
SKIPPED: Final = frozenset(  # the CLI's bookkeeping, or what a mapped event already says
    {
        *("system.message", "assistant.turn_start", "assistant.turn_end", "assistant.usage"),
        *("assistant.message_start", "assistant.message_delta", "assistant.reasoning_delta"),
        *("assistant.streaming_delta", "assistant.tool_call_delta", "assistant.intent"),
        *("assistant.idle", "session.idle", "tool.execution_partial_result"),
        *("tool.execution_progress", "tool.shell_output"),
        *("subagent.completed", "subagent.failed", "subagent.selected", "subagent.deselected"),
        *("subagent.configured", "session.model_change", "session.mode_changed"),
        *("session.context_changed", "session.todos_changed", "session.plan_changed"),
        *("session.workspace_file_changed", "session.skills_loaded", "session.tools_updated"),
        *("session.mcp_servers_loaded", "session.mcp_server_status_changed", "hook.start"),
        *("session.mcp_server_tools_loaded", "session.usage_checkpoint", "session.info"),
        *("session.truncation", "session.compaction_start", "session.compaction_complete"),
        *("hook.end", "hook.progress", "permission.requested", "permission.completed"),
        *("session.custom_agents_updated", "session.background_tasks_changed"),
        *("pending_messages.modified", "session.warning", "session.task_complete"),
        *("session.usage_info", "session.quota_observation", "session.extensions_loaded"),
    }
)
KNOWN_RECORDS: Final = MAPPED | SKIPPED


def record_type(record: Mapping[str, object]) -> str | None:
    """An event's type (``tool.execution_start``), or None when it has none."""
    kind = record.get("type")
    return kind if isinstance(kind, str) else None
