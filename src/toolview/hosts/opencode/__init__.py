"""OpenCode as a toolview host: its SQLite database, read read-only.

See docs/opencode.md. ``database`` opens ``opencode.db`` read-only (WAL-aware,
never a write, never a checkpoint); ``OpenCodeMapper`` maps one session's
parts to observations; ``load_observations`` streams every top-level
session of a database with its sub-agent sessions nested under their call.
"""

from toolview.hosts.opencode.loader import (
    load_observations,
    load_session,
    session_files,
    sniff,
    top_sessions,
)
from toolview.hosts.opencode.mapper import OpenCodeMapper

__all__ = [
    "OpenCodeMapper",
    "load_observations",
    "load_session",
    "session_files",
    "sniff",
    "top_sessions",
]
