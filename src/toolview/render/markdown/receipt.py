"""Receipts and the thread summary in Markdown: inert inline text, one paragraph each.

The words come from ``toolview.render.words``, the same on every surface;
untrusted pieces are escaped with ``inline`` (arguments as a code span).
"""

from __future__ import annotations

from toolview.render.markdown.escape import code_span, inline
from toolview.render.receipt import Receipt
from toolview.render.summary import Summary
from toolview.render.summary_words import summary_more
from toolview.render.words import receipt_segments, summary_segments

__all__ = ["receipt_md", "summary_md"]


def receipt_md(receipt: Receipt) -> str:
    """``### ⊘ bash refused by rules.toml: destructive · `{ … }``` — one line.

    A heading like every call's, so the receipt reads as its own entry and not
    as the tail of the call above it.
    """
    pieces = [
        code_span(text) if role == "args" else inline(text)
        for text, role in receipt_segments(receipt)
    ]
    return "### " + "".join(pieces)


def summary_md(summary: Summary) -> str:
    """A rule, then ``**9 calls:** 6 succeeded, 1 failed, …``."""
    segments = summary_segments(summary)
    head = inline(segments[0][0].rstrip())
    rest = "".join(inline(text) for text, _ in segments[1:])
    more = "".join(f"  \n{inline(line)}" for line in summary_more(summary))
    return f"---\n\n**{head}** {rest}".rstrip(" ") + more
