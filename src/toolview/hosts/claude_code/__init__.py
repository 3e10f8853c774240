"""Claude Code sessions as a toolview host: ``~/.claude/projects/<project>/<session>.jsonl``.

See docs/hosts/claude-code.md. ``ClaudeCodeMapper`` is the sans-IO mapping
(one record at a time, so a finished file and a growing one map alike);
``load_observations`` streams a session file with its sub-agents' files;
``sniff`` tells the format from a file's first bytes; ``session_files`` lists
the sessions under a folder, newest first.
"""

from toolview.hosts.claude_code.loader import load_observations, session_files, sniff
from toolview.hosts.claude_code.mapper import ClaudeCodeMapper
from toolview.hosts.claude_code.record_types import KNOWN_RECORDS, VERIFIED, record_type
from toolview.hosts.sessions import SessionLineError, SessionNote

__all__ = [
    "KNOWN_RECORDS",
    "VERIFIED",
    "ClaudeCodeMapper",
    "SessionLineError",
    "SessionNote",
    "load_observations",
    "record_type",
    "session_files",
    "sniff",
]
