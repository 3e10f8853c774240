"""Qwen Code as a toolview host: its chat files, read cold or as they grow.

See docs/qwen.md. ``QwenMapper`` maps one chat record at a time (sans-IO);
``load_observations`` streams a chat; ``session_files`` lists the chats
under ``~/.qwen/projects``.
"""

from toolview.hosts.qwen.loader import load_observations, session_files, sniff
from toolview.hosts.qwen.mapper import QwenMapper
from toolview.hosts.qwen.records import KNOWN_RECORDS, VERIFIED, record_type

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "QwenMapper",
    "load_observations",
    "record_type",
    "session_files",
    "sniff",
]
