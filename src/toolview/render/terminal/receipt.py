"""Receipts and the thread summary as Rich ``Text``, coloured from the status table.

The words come from ``toolview.render.words`` (the same on every surface);
only the styles are the terminal's own. Untrusted pieces are plain ``Text``
spans: no markup, no highlighting.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from toolview.render.receipt import Receipt
from toolview.render.summary import Summary
from toolview.render.summary_words import summary_more
from toolview.render.terminal.indent import Indent
from toolview.render.terminal.styled import Hanging
from toolview.render.words import ReceiptRole, receipt_segments, summary_segments

__all__ = ["ReceiptLine", "SummaryLine", "receipt_text"]

_ROLE_STYLE: Final[dict[ReceiptRole, str]] = {
    "tool": "bold",
    "glue": "",
    "guard": "bold",
    "reason": "",
    "args": "dim",
}


@dataclass(frozen=True)
class ReceiptLine:
    """A receipt on one line where it fits; wrapped, never cut, where it does not.

    What was refused is the point of a receipt, so the arguments' preview is
    never dropped for want of width: when the line would not fit the console,
    the refusal wraps under its icon and the arguments follow on lines of their
    own, indented like it (a long token folds rather than runs off the edge).
    """

    receipt: Receipt

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = receipt_text(self.receipt)
        if not self.receipt.args or text.cell_len <= options.max_width:
            yield Hanging(text)
            return
        yield Hanging(receipt_text(replace(self.receipt, args=None)))
        args = Text(self.receipt.args, style=_ROLE_STYLE["args"])
        yield Indent(args)


def receipt_text(receipt: Receipt) -> Text:
    """``⊘ bash refused by rules.toml: destructive · { … }`` as styled text."""
    text = Text()
    for piece, role in receipt_segments(receipt):
        style = f"bold {receipt.display.colour}" if role == "icon" else _ROLE_STYLE[role]
        text.append(piece, style=style)
    return text


@dataclass(frozen=True)
class SummaryLine:
    """The summary, wrapped only between counts ("1 / running" never splits)."""

    summary: Summary

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        line.append("── ", style="dim")
        for piece, part in summary_segments(self.summary):
            if part is None:
                line.append(piece, style="dim")
                continue
            if line.cell_len + len(piece) > options.max_width and line.plain.strip():
                yield line
                line = Text("   ")
            line.append(piece, style=part.display.colour)
        yield line
        for more in summary_more(self.summary):
            yield Text(f"   {more}", style="dim")
