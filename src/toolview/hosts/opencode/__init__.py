"""OpenCode as a toolview host: its SQLite database, read read-only.

See docs/opencode.md. ``database`` opens ``opencode.db`` read-only (WAL-aware,
never a write, never a checkpoint); ``OpenCodeMapper`` maps one session's
parts to observations; ``load_observations`` streams every top-level
session of a database with its sub-agent sessions nested under their call.
``legacy`` reads the JSON storage OpenCode wrote before 1.2 into the same rows,
one session file at a time, for the same mapper.
"""

from toolview.hosts.opencode.loader import (
    load_observations,
    load_session,
    session_files,
    sniff,
    top_sessions,
)
from toolview.hosts.opencode.mapper import OpenCodeMapper
from toolview.hosts.opencode.records import KNOWN_RECORDS, VERIFIED, part_records, record_type

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "OpenCodeMapper",
    "load_observations",
    "load_session",
    "part_records",
    "record_type",
    "session_files",
    "sniff",
    "top_sessions",
]
