"""Receipts and the thread summary as plain text: one line each.

The words come from ``toolview.render.words``, the same on every surface;
plain text writes them as they are.
"""

from __future__ import annotations

from toolview.render.receipt import Receipt
from toolview.render.summary import Summary
from toolview.render.summary_words import summary_more
from toolview.render.words import receipt_text, summary_text

__all__ = ["receipt_line", "summary_line"]


def receipt_line(receipt: Receipt) -> str:
    """A refused call: ``⊘ bash refused by rules.toml: destructive · { … }``."""
    return receipt_text(receipt)


def summary_line(summary: Summary) -> str:
    """``── 9 calls: 6 succeeded, 1 failed, 1 refused, 1 running``; time and tokens under it."""
    more = "".join(f"\n   {line}" for line in summary_more(summary))
    return f"── {summary_text(summary)}{more}"
