"""GitHub Copilot CLI as a toolview host: its session event logs, read cold or as they grow.

See docs/copilot-cli.md. ``CopilotMapper`` maps one event at a time (sans-IO);
``load_observations`` streams a session; ``session_files`` lists the sessions
under ``~/.copilot/session-state``; ``KNOWN_RECORDS``/``record_type`` are what
``toolview doctor`` checks.
"""

from toolview.hosts.copilot.loader import load_observations, session_files, sniff
from toolview.hosts.copilot.mapper import CopilotMapper
from toolview.hosts.copilot.records import KNOWN_RECORDS, VERIFIED, record_type

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "CopilotMapper",
    "load_observations",
    "record_type",
    "session_files",
    "sniff",
]
