"""The Codex CLI as a toolview host: its rollout files, read cold or as they grow.

See docs/hosts/codex.md. ``CodexMapper`` maps one rollout record at a time
(sans-IO); ``load_observations`` streams a rollout and its sub-agents';
``session_files`` lists the main sessions under ``~/.codex/sessions``.
"""

from toolview.hosts.codex.loader import load_observations, parent_thread_id, session_files, sniff
from toolview.hosts.codex.mapper import CodexMapper
from toolview.hosts.codex.record_types import KNOWN_RECORDS, VERIFIED, record_type

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "CodexMapper",
    "load_observations",
    "parent_thread_id",
    "record_type",
    "session_files",
    "sniff",
]
