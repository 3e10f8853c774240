"""How much output an interrupted call had produced: "stopped after N lines".

A call the run aborted keeps its last partial output on every surface, cut to
the usual window; this says how long the whole output was when it stopped. The
tool's own count wins when its descriptor has one (its window may hold only
the last lines of a longer output); otherwise the text's lines are counted —
a scan of the text, so past ``EXACT_COUNT_CHARS`` characters it is said in
characters, as every other omission is.
"""

from __future__ import annotations

from toolview.contract import Descriptor, ToolResult, Truncation
from toolview.render.limits import EXACT_COUNT_CHARS, Omission, counted

__all__ = ["output_amount", "stopped_text"]


def output_amount(result: ToolResult) -> Omission:
    """How much output ``result`` stands for: the tool's count, else its text's lines."""
    descriptor = result.descriptor
    if isinstance(descriptor, Descriptor) and isinstance(descriptor.truncated, Truncation):
        return Omission(descriptor.truncated.total, descriptor.truncated.unit)
    text = result.text
    if len(text) > EXACT_COUNT_CHARS:
        return Omission(len(text), "chars")
    return Omission(text.count("\n") + (0 if text.endswith("\n") else 1), "lines")


def stopped_text(amount: Omission) -> str:
    """``stopped after 2 lines`` (``… 1 line``, ``… 4,096 bytes``)."""
    return f"stopped after {counted(amount.count, amount.unit)}"
