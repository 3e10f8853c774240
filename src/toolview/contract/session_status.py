"""A session's live status: running, waiting for input, idle, done or failed, as of a time.

Why apart from ``session_facts``: the facts are what a session's records say
(title, project, times, how its run ended); the status is a rule over them
and the clock, with its own thresholds, and a listing must also know when
that answer next changes with time alone (``changes_at``) to hold a listing
until then. ``SessionFacts.status`` and ``status_until`` are the one door
every view reads it through.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

__all__ = [
    "DONE_AFTER_S",
    "IDLE_AFTER_S",
    "STATUSES",
    "Quiet",
    "SessionStatus",
    "changes_at",
    "epoch",
    "status_of",
]

SessionStatus = Literal["running", "waiting for input", "idle", "done", "failed"]
STATUSES: Final[tuple[SessionStatus, ...]] = (
    "running",
    "waiting for input",
    "idle",
    "done",
    "failed",
)
IDLE_AFTER_S: Final = 5 * 60  # no record for this long: no longer running
DONE_AFTER_S: Final = 60 * 60  # no record for this long and no end written: done


@dataclass(frozen=True)
class Quiet:
    """How a session's run ended (``None``: it has not) and when its last record came."""

    outcome: str | None
    last: float | None  # epoch seconds; ``None``: no time known


def status_of(quiet: Quiet, now: float, *, waiting_calls: int, answered: bool) -> SessionStatus:
    """The status as of ``now``.

    An ended run says done (completed or aborted) or failed (an error).
    Otherwise the time since the last record decides: within
    ``IDLE_AFTER_S`` a session whose last turn is the assistant's words
    (``answered``: no call open) waits for its user, else runs; then idle;
    after ``DONE_AFTER_S`` with no end written, done. A call waiting for a
    person (``waiting_calls``: the ledger's ``needs_input``) waits for
    input however long it has been quiet, until ``DONE_AFTER_S``: a
    question nobody answered is the one thing the reader must see.
    """
    if quiet.outcome is not None:
        return "failed" if quiet.outcome == "error" else "done"  # aborted: stopped, not failed
    span = now - quiet.last if quiet.last is not None else float("inf")
    if span >= DONE_AFTER_S:
        return "done"
    if waiting_calls:
        return "waiting for input"
    if span >= IDLE_AFTER_S:
        return "waiting for input" if answered else "idle"
    return "waiting for input" if answered else "running"


def changes_at(quiet: Quiet, now: float, *, waits: bool) -> float:
    """When ``status_of``'s answer as of ``now`` next changes with time alone (``inf``: never).

    It moves only as the quiet time crosses ``DONE_AFTER_S``, or ``IDLE_AFTER_S`` for
    a session not waiting (``waits``: for its user or for a person's decision; those
    wait the same before and after).
    """
    last = quiet.last
    if quiet.outcome is not None or last is None:
        return float("inf")
    idle = () if waits else (last + IDLE_AFTER_S,)
    return next((at for at in (*idle, last + DONE_AFTER_S) if now < at), float("inf"))


def epoch(at: str) -> float:
    """A contract time (``2026-01-02T03:04:05Z``) in epoch seconds; 0 when it is not one."""
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0
