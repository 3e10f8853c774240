"""Which thread a span belongs to: its conversation's, else its trace's.

Why the conversation first: ``gen_ai.conversation.id`` spans several runs
(traces) of one chat, and a person reads a chat as one thread. A trace id is
hex and always fits a thread id; a conversation id is anyone's text, so it is
made safe (the server's rule: 1-64 of ``A-Z a-z 0-9 . _ -``), and one that had
to change keeps a digest of the original, so two ids never land together.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Final

from toolview.hosts.otel.spans import TelemetrySpan

__all__ = ["CONVERSATION", "PREFIX", "conversations", "thread_id_for"]

CONVERSATION: Final = "gen_ai.conversation.id"
_SESSION: Final = "session.id"  # OpenInference's name for a conversation
PREFIX: Final = "otel-"
_LONGEST: Final = 64 - len(PREFIX)
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]")


def conversations(spans: Iterable[TelemetrySpan]) -> dict[str, str]:
    """Trace id → the conversation some span of that trace names (the first one seen).

    ``gen_ai.conversation.id``, or OpenInference's ``session.id``.

    Why per trace: a framework may set the attribute on the agent's span only,
    and its tool spans belong to the same conversation.
    """
    found: dict[str, str] = {}
    for span in spans:
        conversation = span.text(CONVERSATION) or span.text(_SESSION)
        if conversation is not None:
            found.setdefault(span.trace_id, conversation)
    return found


def thread_id_for(trace_id: str, conversation: str | None = None) -> str:
    """``otel-<conversation id, made safe>``, or ``otel-<trace id>`` without one."""
    if conversation is None:
        return PREFIX + trace_id
    safe = _UNSAFE.sub("-", conversation)
    if safe == conversation and len(safe) <= _LONGEST and safe not in (".", ".."):
        return PREFIX + safe
    digest = hashlib.sha256(conversation.encode()).hexdigest()[:16]
    return f"{PREFIX}{safe[: _LONGEST - 17]}-{digest}"
