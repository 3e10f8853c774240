"""Run bookkeeping shared by the live mapper and the session reader.

A run is one agent loop: a prompt until pi stops. Live, pi says so
(``agent_start``/``agent_end``); a session file does not, so a stored run
spans a user message to the next. Both number runs the same way and read the
outcome from the last assistant message's ``stopReason``, so live and stored
agree.

Times: pi stamps each message (``timestamp``, milliseconds since the epoch)
in the session file and in the live ``message_end`` event alike, so a message
and a call (its assistant message's time) get the same ``at`` both ways
(``message_at``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import msgspec

from toolview.contract import Message, RunOutcome
from toolview.contract.moments import at_from_ms
from toolview.hosts.pi.results import content_text

__all__ = ["message_at", "message_observation", "run_id", "run_outcome"]

_OUTCOMES: Final[Mapping[str, RunOutcome]] = {"aborted": "aborted", "error": "error"}


def run_id(prefix: str, number: int) -> str:
    """The id of the ``number``-th run (from 1) of the session ``prefix``."""
    return f"{prefix}/{number}"


def run_outcome(messages: Iterable[object]) -> RunOutcome:
    """``aborted``/``error`` when the last assistant message stopped so, else ``completed``."""
    last: object = None
    for message in messages:
        if isinstance(message, Mapping) and message.get("role") == "assistant":
            last = message.get("stopReason")
    return _OUTCOMES.get(last, "completed") if isinstance(last, str) else "completed"


def message_observation(message: Mapping[str, object]) -> Message | None:
    """A ``message`` for user or assistant text; ``None`` when there is no text."""
    role = message.get("role")
    if role not in ("user", "assistant"):
        return None
    text = content_text(message.get("content"))
    if not text.strip():
        return None
    at = message_at(message)
    return Message(role="user" if role == "user" else "assistant", text=text, at=at)


def message_at(message: Mapping[str, object]) -> str | msgspec.UnsetType:
    """When pi stamped ``message`` (its ``timestamp``), as an ``at``; unset if it did not."""
    return at_from_ms(message.get("timestamp")) or msgspec.UNSET
