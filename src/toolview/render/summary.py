"""The thread summary: how many calls ended how, shown at the end of a thread.

Calls are counted by display status (the one status table), except that a
call a guard refused is counted as *refused* — it never ran, which is not the
same as a tool that ran and answered "denied" — though it wears the ``denied``
status's icon and colour. The summary is built from the views a layout has
already decided, so it costs nothing extra and never disagrees with them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from toolview.contract import STATUS_DISPLAY, DisplayStatus, StatusDisplay, Thread
from toolview.render.bodies import CallView
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.view import view_entry

__all__ = [
    "SUMMARY_MIN_CALLS",
    "SUMMARY_ORDER",
    "Summary",
    "SummaryKey",
    "SummaryPart",
    "summarize",
    "summary_key",
    "summary_of",
    "thread_summary",
]

SummaryKey: TypeAlias = DisplayStatus | Literal["refused"]

# Finished outcomes first, the good news first; what is still running last.
SUMMARY_ORDER: Final[tuple[SummaryKey, ...]] = (
    "success",
    "error",
    "timeout",
    "cancelled",
    "not_found",
    "needs_input",
    "denied",
    "refused",
    "unknown",
    "running",
)
_ARIA_SUBJECT: Final = "Tool call "
# One call's summary would only repeat its header.
SUMMARY_MIN_CALLS: Final = 2


@dataclass(frozen=True)
class SummaryPart:
    """``count`` calls that ended the same way, in words from the status table."""

    key: SummaryKey
    count: int
    words: str
    status: DisplayStatus
    display: StatusDisplay


@dataclass(frozen=True)
class Summary:
    """All calls of a thread, counted; ``parts`` in ``SUMMARY_ORDER``."""

    total: int
    parts: tuple[SummaryPart, ...]


def summarize(views: Iterable[CallView | Receipt]) -> Summary | None:
    """Count the decided calls; ``None`` below two (one call's header already says it)."""
    return summary_of(Counter(summary_key(view) for view in views))


def summary_key(view: CallView | Receipt) -> SummaryKey:
    """What one decided call counts as: ``refused`` for a receipt, else its display status."""
    return "refused" if isinstance(view, Receipt) else view.header.status


def summary_of(counts: Counter[SummaryKey]) -> Summary | None:
    """The summary of calls already counted by ``summary_key`` (a stream keeps only counts).

    ``None`` below two calls, as ``summarize``.
    """
    if counts.total() < SUMMARY_MIN_CALLS:
        return None
    parts = tuple(_part(key, counts[key]) for key in SUMMARY_ORDER if counts[key])
    return Summary(sum(counts.values()), parts)


def thread_summary(thread: Thread, limits: Limits = DEFAULT_LIMITS) -> Summary | None:
    """The summary of ``thread`` on its own (a layout uses ``summarize`` on its views)."""
    return summarize(view_entry(entry, thread, limits) for entry in thread.calls())


def _part(key: SummaryKey, count: int) -> SummaryPart:
    status: DisplayStatus = "denied" if key == "refused" else key
    display = STATUS_DISPLAY[status]
    return SummaryPart(
        key, count, "refused" if key == "refused" else _words(display), status, display
    )


def _words(display: StatusDisplay) -> str:
    """``succeeded`` from the table's ARIA text "Tool call succeeded"; else its label."""
    if display.aria.startswith(_ARIA_SUBJECT):
        return display.aria[len(_ARIA_SUBJECT) :]
    return display.label.lower()
