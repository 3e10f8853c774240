"""What the session hosts (Claude Code, Codex) share: a bad line and its note.

A session file is read line by line; one line that is not a JSON object must
not cost the rest of the session. A mapper's ``feed_line`` raises
``SessionLineError`` for it, and a loader turns that into a ``SessionNote``
in its stream, so the reader sees where something was left out and why.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SessionLineError", "SessionNote"]


class SessionLineError(ValueError):
    """One line of a session file that is not a JSON object; the message says why."""


@dataclass(frozen=True)
class SessionNote:
    """A visible note in a session's stream: what was left out, and why."""

    text: str
