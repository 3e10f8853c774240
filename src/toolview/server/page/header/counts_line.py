"""The page header's counts line: the session's counts, as every view says them.

Why its own piece: the page says a thread's calls, failures and running calls
under its title, and the live page keeps that line current — both from
``contract.counts`` (the one home), never counted from the calls drawn (a
page draws only a window of them, and none of its sub-agents' beside it).
The summary fragment carries the same words in a header (``COUNTS_HEADER``)
so ``static/live.js`` refreshes the line with the footer, without a request.
"""

from __future__ import annotations

from typing import Final

from toolview.contract.counts import SessionCounts, counts_text
from toolview.safety import escape_html

__all__ = ["COUNTS_HEADER", "counts_html", "counts_line_text"]

COUNTS_HEADER: Final = "x-toolview-counts"


def counts_html(counts: SessionCounts) -> str:
    """``<p id="tv-counts">11 calls (+156 in sub-agents), 0 failed (+23 in sub-agents)</p>``.

    The numbers ride along as data attributes for the page's script (the chips).
    """
    data = (
        f'data-calls="{counts.calls}" data-failed="{counts.failed}" '
        f'data-running="{counts.running}" data-sub-calls="{counts.sub_calls}" '
        f'data-sub-failed="{counts.sub_failed}"'
    )
    words = escape_html(counts_line_text(counts))
    return f'<p id="tv-counts" class="tv-counts" {data}>{words}</p>'


def counts_line_text(counts: SessionCounts) -> str:
    """The counts' words, then the cost's where the thread's turns were counted:
    ``3 calls, 0 failed; cost $0.42`` (``contract.counts``: the words every view says;
    ASCII, as the summary fragment's header carries them)."""
    words = counts_text(counts)
    if counts.models or counts.sub_models:
        words += f"; cost {counts.cost_words()}"
    return words
