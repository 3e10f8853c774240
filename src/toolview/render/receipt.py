"""Receipts: a call a guard refused, drawn as one compact line.

A refused call never ran, so it has no output, no descriptor and nothing for
the generic renderer to lay out: the message container shows it as a receipt
instead — tool name, "refused", the guard's name, the reason, and a short
preview of the arguments. Every field is untrusted (redacted, neutralised,
flattened to one line and bounded here; a surface still escapes it). The
status and its icon, colour and ARIA text come from the one status table.

A receipt is the ONE shape a refusal takes: ``view.view_entry`` decides it
once, from the call's state, and every surface draws a ``Receipt`` — no
surface has a "refused" body of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import (
    STATUS_DISPLAY,
    CallEntry,
    CallState,
    DisplayStatus,
    StatusDisplay,
    ToolRefused,
)
from toolview.contract import display_status as status_for_state
from toolview.render.clean import clean_field
from toolview.render.jsonview import args_preview
from toolview.render.limits import DEFAULT_LIMITS, Limits, Omission

__all__ = [
    "RECEIPT_ARGS_CHARS",
    "RECEIPT_GUARD_CHARS",
    "RECEIPT_NAME_CHARS",
    "RECEIPT_REASON_CHARS",
    "Receipt",
    "one_line",
    "view_receipt",
]

# A receipt is one line where the surface is wide enough: each field is cut
# (and says so) past these. The arguments are what was refused, so they get as
# much room as a call's arguments do (``Limits.max_args_chars``); a narrow
# terminal wraps them rather than cutting them.
RECEIPT_NAME_CHARS: Final = 80
RECEIPT_GUARD_CHARS: Final = 80
RECEIPT_REASON_CHARS: Final = 200
RECEIPT_ARGS_CHARS: Final = 300
_ID_CHARS: Final = 200


@dataclass(frozen=True)
class Receipt:
    """A refused call, decided: every string cleaned and on one line; then its notes."""

    tool_call_id: str
    tool_name: str
    status: DisplayStatus
    display: StatusDisplay
    reason: str
    guard: str | None = None
    args: str | None = None
    state: CallState = "refused"
    notes: tuple[str, ...] = ()


def one_line(text: str, max_chars: int) -> str:
    """Already-cleaned ``text`` folded onto one line and cut to ``max_chars``.

    What is cut is said the shared way ("… 1,234 more characters").
    """
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    return f"{flat[:max_chars].rstrip()} {Omission(len(flat) - max_chars, 'chars')}"


def view_receipt(
    entry: CallEntry,
    refusal: ToolRefused,
    limits: Limits = DEFAULT_LIMITS,
    notes: tuple[str, ...] = (),
) -> Receipt:
    """The receipt of ``entry``, which ``refusal`` refused (``view_entry`` calls this).

    Each field is cleaned, folded onto one line and bounded; the status comes
    from the one table.
    """
    name = one_line(clean_field(entry.tool_name, _ID_CHARS), RECEIPT_NAME_CHARS)
    reason = clean_field(refusal.reason, limits.max_chars, "space")
    guard = refusal.guard if isinstance(refusal.guard, str) else ""
    guard = one_line(clean_field(guard, _ID_CHARS), RECEIPT_GUARD_CHARS)
    args = (args_preview(entry.call.args, limits) if entry.call is not None else None) or ""
    args = one_line(args, RECEIPT_ARGS_CHARS)
    status = status_for_state("refused")
    return Receipt(
        tool_call_id=clean_field(entry.tool_call_id, _ID_CHARS),
        tool_name=name or "(unnamed tool)",
        status=status,
        display=STATUS_DISPLAY[status],
        reason=one_line(reason, RECEIPT_REASON_CHARS) or "(no reason given)",
        guard=guard or None,
        args=args or None,
        notes=notes,
    )
