"""What could not be published, in words a person reads on stderr.

Why its own module: when a publisher gives up, the person must learn what the
thread lacks — by name for a call's start and end (which call will show as
never finished), counted for the rest — in one line, however much was lost.
Ids are shown with ``repr`` so a hostile id cannot put control characters on
the terminal.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from toolview.contract import Observation, ToolCall, ToolRefused, ToolResult, is_partial

__all__ = ["describe", "lost_summary"]

_NAMED: Final = 5  # at most this many observations named; the rest counted


def describe(observation: Observation) -> str:
    """``the tool-result of call 'c1'``: which observation, for a message."""
    kind = type(observation).__struct_config__.tag
    call = getattr(observation, "tool_call_id", None)
    if call is not None:
        return f"the {kind} of call {call!r}"
    run = getattr(observation, "run_id", None)
    return f"the {kind} of run {run!r}" if run is not None else f"a {kind} observation"


def lost_summary(lost: list[Observation]) -> str:
    """``; 3 observations not published: the tool-result of call 'c1', 2 messages`` or ``""``."""
    if not lost:
        return ""
    named = [describe(o) for o in lost if _matters(o)]
    others = Counter(_kind(o) for o in lost if not _matters(o))
    parts = named[:_NAMED]
    if len(named) > _NAMED:
        parts.append(f"{len(named) - _NAMED} more calls and results")
    parts += [f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in sorted(others.items())]
    n = len(lost)
    return f"; {n} observation{'s' if n != 1 else ''} not published: {', '.join(parts)}"


def _matters(observation: Observation) -> bool:
    """A call's start or end: what a person must hear by name if it never arrived."""
    return isinstance(observation, ToolCall | ToolRefused) or (
        isinstance(observation, ToolResult) and observation.complete
    )


def _kind(observation: Observation) -> str:
    if is_partial(observation):
        return "partial result"
    return str(type(observation).__struct_config__.tag)
