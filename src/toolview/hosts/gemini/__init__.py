"""Gemini CLI as a toolview host: its chat files, read cold or as they grow.

See docs/gemini.md. ``GeminiMapper`` maps one chat record at a time
(sans-IO); ``load_observations`` streams a chat and its sub-agents';
``session_files`` lists the main chats under ``~/.gemini/tmp``.
"""

from toolview.hosts.gemini.loader import load_observations, session_files, sniff
from toolview.hosts.gemini.mapper import GeminiMapper
from toolview.hosts.gemini.records import KNOWN_RECORDS, VERIFIED, record_type

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "GeminiMapper",
    "load_observations",
    "record_type",
    "session_files",
    "sniff",
]
