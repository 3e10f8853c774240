"""The thread summary: how many calls ended how, shown at the end of a thread.

Calls are counted by display status (the one status table), except that a
call a guard refused is counted as *refused* — it never ran, which is not the
same as a tool that ran and answered "denied" — though it wears the ``denied``
status's icon and colour. The summary is built from the views a layout has
already decided, so it costs nothing extra and never disagrees with them.

Where the thread says when (``at``) and what the model turns cost (``usage``
observations), the summary adds the time from the first ``at`` to the last
and the tokens summed per model; a thread with neither reads as before. With
tokens, a thread of fewer than two calls has a summary too: no header says
them (a time span alone does not: one call's span is about its duration).

With a thread, the summary also carries its ``SessionCounts`` (``contract.counts``,
the one home of a session's counts, sub-agents' included): surfaces say them
in the line after the counts (``summary_words``) where sub-agents made calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from toolview.contract import STATUS_DISPLAY, DisplayStatus, StatusDisplay, Thread, Usage
from toolview.contract.counts import SessionCounts
from toolview.contract.status import SummaryKey
from toolview.render.bodies import CallView
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.receipt import Receipt
from toolview.render.view import view_entry

__all__ = [
    "SUMMARY_MIN_CALLS",
    "SUMMARY_ORDER",
    "ModelTokens",
    "Summary",
    "SummaryKey",
    "SummaryPart",
    "add_usage",
    "summarize",
    "summary_key",
    "summary_of",
    "thread_summary",
    "token_totals",
]


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
class ModelTokens:
    """One model's tokens over a thread; a cache count is ``None`` when no turn gave it."""

    model: str
    input: int
    output: int
    cache_read: int | None = None
    cache_write: int | None = None


@dataclass(frozen=True)
class Summary:
    """All calls of a thread, counted; ``parts`` in ``SUMMARY_ORDER``.

    ``span_ms``: first ``at`` to last, when the thread has two different
    times; ``tokens``: per model, in order of first use; ``counts``: the
    session's counts, its sub-agents' included (``contract.counts``, the one
    home every view reads), when the thread is known.
    """

    total: int
    parts: tuple[SummaryPart, ...]
    span_ms: int | None = None
    tokens: tuple[ModelTokens, ...] = ()
    counts: SessionCounts | None = None


def token_totals(usages: Iterable[Usage]) -> tuple[ModelTokens, ...]:
    """The ``usage`` observations summed per model, in order of each model's first turn."""
    totals: dict[str, ModelTokens] = {}
    for usage in usages:
        totals[usage.model] = add_usage(totals.get(usage.model), usage)
    return tuple(totals.values())


def add_usage(total: ModelTokens | None, usage: Usage) -> ModelTokens:
    """``total`` (its model's tokens so far, if any) with one more turn added."""
    base = total or ModelTokens(usage.model, 0, 0)
    return ModelTokens(
        usage.model,
        base.input + usage.input_tokens,
        base.output + usage.output_tokens,
        _plus(base.cache_read, usage.cache_read_tokens),
        _plus(base.cache_write, usage.cache_write_tokens),
    )


def _plus(total: int | None, more: object) -> int | None:
    if not isinstance(more, int):
        return total
    return more if total is None else total + more


def summarize(views: Iterable[CallView | Receipt], thread: Thread | None = None) -> Summary | None:
    """Count the decided calls; ``None`` below two (one call's header already says it).

    ``thread``: where the time span and the tokens come from.
    """
    counts = Counter(summary_key(view) for view in views)
    if thread is None:
        return summary_of(counts)
    return summary_of(counts, thread.span.ms, token_totals(thread.usage), thread.counts())


def summary_key(view: CallView | Receipt) -> SummaryKey:
    """What one decided call counts as: ``refused`` for a receipt, else its display status."""
    return "refused" if isinstance(view, Receipt) else view.header.status


def summary_of(
    counts: Counter[SummaryKey],
    span_ms: int | None = None,
    tokens: tuple[ModelTokens, ...] = (),
    session: SessionCounts | None = None,
) -> Summary | None:
    """The summary of calls already counted by ``summary_key`` (a stream keeps only counts).

    ``None`` below two calls, as ``summarize``, unless there are tokens or
    sub-agents' calls (``session``: the thread's counts) to say.
    """
    span = span_ms if span_ms else None  # a span of nothing says nothing
    subs = session is not None and session.sub_calls > 0
    if counts.total() < SUMMARY_MIN_CALLS and not tokens and not subs:
        return None
    parts = tuple(_part(key, counts[key]) for key in SUMMARY_ORDER if counts[key])
    return Summary(sum(counts.values()), parts, span, tokens, session)


def thread_summary(thread: Thread, limits: Limits = DEFAULT_LIMITS) -> Summary | None:
    """The summary of ``thread`` on its own (a layout uses ``summarize`` on its views)."""
    return summarize((view_entry(entry, thread, limits) for entry in thread.calls()), thread)


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
