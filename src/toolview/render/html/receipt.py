"""Receipts and the thread summary in HTML: escaped, classed, labelled for ARIA.

A receipt is one line — the call's heading (``<h3 class="tv-receipt
tv-call-title">``), its icon hidden from screen readers and the status
table's ARIA text read in its place — inside an ``<article>`` with the call's
stable id and a permalink, so the live page (which patches calls by id)
replaces a pending call with its receipt in place. It announces nothing by
itself (no ``role="status"``): a page has one live region, its status line.
The summary is a footer at the end of the thread; CSS ``order`` keeps it
last even when the live page appends calls after it.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.render.html.header import permalink_html
from toolview.render.html.markup import esc
from toolview.render.receipt import Receipt
from toolview.render.summary import Summary
from toolview.render.summary_words import summary_more
from toolview.render.words import ReceiptRole, receipt_segments, summary_segments

__all__ = ["colour_class", "note_markup", "receipt_html", "summary_html"]

_CLASS_SAFE: Final = re.compile(r"[^a-z0-9_-]")
_ROLE_CLASS: Final[dict[ReceiptRole, str]] = {
    "tool": "tv-tool",
    "guard": "tv-guard",
    "reason": "tv-reason",
}


def colour_class(colour: str) -> str:
    """``tv-colour-red`` for a colour name of the status table."""
    return "tv-colour-" + _CLASS_SAFE.sub("", colour.lower())


def note_markup(note: str) -> str:
    """A visible note (already cleaned): about the thread, or about one call inside its article."""
    return f'<p class="tv-note" role="note">note: {esc(note)}</p>'


def receipt_html(receipt: Receipt, element_id: str) -> str:
    """The receipt as an ``<article>`` holding one labelled line, then its notes.

    ``element_id`` is safe.
    """
    segments = receipt_segments(receipt)
    pieces: list[str] = []
    for text, role in segments:
        if role == "icon":
            colour = colour_class(receipt.display.colour)
            pieces.append(
                f'<span class="tv-receipt-icon {colour}" aria-hidden="true">{esc(text)}</span>'
                f'<span class="tv-sr">{esc(receipt.display.aria)}:</span>'
            )
        elif role == "args":
            pieces.append(f'<code class="tv-receipt-args">{esc(text)}</code>')
        elif role in _ROLE_CLASS:
            pieces.append(f'<span class="{_ROLE_CLASS[role]}">{esc(text)}</span>')
        else:
            pieces.append(esc(text))
    return (
        f'<article class="tv-call tv-call-receipt" id="{element_id}" '
        f'data-state="{esc(receipt.state)}" data-status="{esc(receipt.status)}" '
        f'data-tool="{esc(receipt.tool_name)}" data-kind="">'
        f"{permalink_html(element_id, receipt.tool_name)}"
        f'<h3 class="tv-receipt tv-call-title">{"".join(pieces)}</h3>'
        f"{''.join(note_markup(note) for note in receipt.notes)}</article>"
    )


def summary_html(summary: Summary) -> str:
    """``<footer>`` with ``9 calls: 6 succeeded, …``, each count in its status's colour."""
    pieces = [
        f'<span class="tv-summary-part {colour_class(part.display.colour)}">{esc(text)}</span>'
        if part is not None
        else esc(text)
        for text, part in summary_segments(summary)
    ]
    pieces += [f"<br>{esc(line)}" for line in summary_more(summary)]
    return f'<footer class="tv-summary" aria-label="Thread summary">{"".join(pieces)}</footer>'
