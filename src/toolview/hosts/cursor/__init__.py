"""Cursor's agent CLI (``cursor-agent`` / ``agent``) as a toolview host: the stream-json a
run prints (``cursor-agent -p --output-format stream-json TASK > run.jsonl``), read cold
or as it grows.

See docs/cursor.md. ``CursorMapper`` maps one event at a time (sans-IO);
``load_observations`` streams a saved run; ``session_files`` lists the runs saved
under ``~/.cursor``; ``KNOWN_RECORDS``/``record_type`` are what ``toolview doctor``
checks.
"""

from toolview.hosts.cursor.loader import load_observations, session_files, sniff
from toolview.hosts.cursor.mapper import CursorMapper
from toolview.hosts.cursor.records import KNOWN_RECORDS, record_type

__all__ = [
    "KNOWN_RECORDS",
    "CursorMapper",
    "load_observations",
    "record_type",
    "session_files",
    "sniff",
]
