"""A thread in one short line: what ``repr(thread)`` and ``str(thread)`` say.

Why counts only: a thread holds untrusted text (arguments, output, secrets a
tool printed); ``print(thread)`` in a notebook or a log must never show any of
it, redacted or not. How many calls ended how — worded like the text
surface's summary — and how many messages is what a person checks at a glance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from toolview.contract.call_state import CallState

__all__ = ["thread_gist"]

_WORDS: Final[tuple[tuple[CallState, str], ...]] = (
    ("done", "succeeded"),
    ("error", "failed"),
    ("refused", "refused"),
    ("aborted", "aborted"),
    ("pending", "running"),
    ("needs_input", "waiting"),
)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def thread_gist(states: Iterable[CallState], messages: int) -> str:
    """``Thread(3 calls: 2 succeeded, 1 failed; 2 messages)``."""
    counted = Counter(states)
    calls = sum(counted.values())
    parts = [_plural(calls, "call")]
    outcomes = [f"{counted[state]} {word}" for state, word in _WORDS if counted[state]]
    if outcomes:
        parts[0] += ": " + ", ".join(outcomes)
    if messages:
        parts.append(_plural(messages, "message"))
    return f"Thread({'; '.join(parts)})"
