"""The Claude Code record types this reader knows: the two it maps, the rest it skips.

Why a list, not "everything but user and assistant is skipped": a type a later
Claude Code adds may hold tool calls, and skipping it silently would hide them.
A record of a type not listed here is said once per session as a note
(``ClaudeCodeMapper``), and ``toolview doctor`` counts them, so a user can
file a precise bug. The skipped types are the ones Claude Code 2.1.197 writes
to its transcripts (found in its binary; docs/claude-code.md says why each
is skipped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["KNOWN_RECORDS", "MAPPED_RECORDS", "SKIPPED_RECORDS", "VERIFIED", "record_type"]

VERIFIED: Final = "2.1.197"
"""The version these record types were checked against (docs/readers.md)."""

MAPPED_RECORDS: Final = frozenset({"user", "assistant"})
SKIPPED_RECORDS: Final = frozenset(
    {
        "summary",
        "system",  # API errors, compaction boundaries, turn durations
        "progress",
        "attachment",  # its todo_reminder repeats the todo list
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "custom-title",
        "ai-title",
        "agent-name",
        "agent-color",
        "agent-setting",
        "tag",
        "mode",
        "permission-mode",
        "pr-link",
        "worktree-state",
        "content-replacement",
        "marble-origami-commit",
        "marble-origami-snapshot",
        "speculation-accept",
    }
)
KNOWN_RECORDS: Final = MAPPED_RECORDS | SKIPPED_RECORDS


def record_type(record: Mapping[str, object]) -> str | None:
    """A record's type as ``KNOWN_RECORDS`` names it: its ``type``."""
    kind = record.get("type")
    return kind if isinstance(kind, str) else None
