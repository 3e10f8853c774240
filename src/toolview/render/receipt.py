"""Receipts: a call a guard refused, drawn as one compact line.

A refused call never ran, so it has no output, no descriptor and nothing for
the generic renderer to lay out: the message container shows it as a receipt
instead — tool name, "refused", the guard's name, the reason, and a short
preview of the arguments. Every field is untrusted (redacted, neutralised,
flattened to one line and bounded here; a surface still escapes it). The
status and its icon, colour and ARIA text come from the one status table.

``view_entry`` is what a surface's thread layout calls for each call: a
``Receipt`` for a refused call, else the generic renderer's ``CallView``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import (
    STATUS_DISPLAY,
    CallState,
    DisplayStatus,
    StatusDisplay,
    ToolRefused,
)
from toolview.contract import display_status as status_for_state
from toolview.render.bodies import CallView, RefusedBody
from toolview.render.clean import clean_field
from toolview.render.jsonview import args_preview
from toolview.render.limits import DEFAULT_LIMITS, Limits, Omission
from toolview.render.thread import CallEntry, Thread
from toolview.render.view import view_call

__all__ = [
    "RECEIPT_ARGS_CHARS",
    "RECEIPT_GUARD_CHARS",
    "RECEIPT_NAME_CHARS",
    "RECEIPT_REASON_CHARS",
    "Receipt",
    "one_line",
    "receipt_from_view",
    "view_entry",
    "view_receipt",
]

# A receipt stays one short line: each field is cut (and says so) past these.
RECEIPT_NAME_CHARS: Final = 80
RECEIPT_GUARD_CHARS: Final = 80
RECEIPT_REASON_CHARS: Final = 200
RECEIPT_ARGS_CHARS: Final = 80
_ID_CHARS: Final = 200


@dataclass(frozen=True)
class Receipt:
    """A refused call, decided: every string cleaned and on one line."""

    tool_call_id: str
    tool_name: str
    status: DisplayStatus
    display: StatusDisplay
    reason: str
    guard: str | None = None
    args: str | None = None
    state: CallState = "refused"


def one_line(text: str, max_chars: int) -> str:
    """Already-cleaned ``text`` folded onto one line and cut to ``max_chars``.

    What is cut is said the shared way ("… 1,234 more characters").
    """
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    return f"{flat[:max_chars].rstrip()} {Omission(len(flat) - max_chars, 'chars')}"


def view_receipt(entry: CallEntry, limits: Limits = DEFAULT_LIMITS) -> Receipt | None:
    """The receipt for ``entry`` if a guard refused it, else ``None``."""
    result = entry.result
    if not isinstance(result, ToolRefused):
        return None
    guard = result.guard if isinstance(result.guard, str) and result.guard.strip() else None
    return _receipt(
        clean_field(entry.tool_call_id, _ID_CHARS),
        clean_field(entry.tool_name or "(unnamed tool)", _ID_CHARS),
        clean_field(result.reason, limits.max_chars, "space"),
        clean_field(guard, _ID_CHARS) if guard else None,
        args_preview(entry.call.args, limits) if entry.call is not None else None,
    )


def receipt_from_view(view: CallView) -> Receipt | None:
    """The receipt for an already decided call whose body is a refusal, else ``None``.

    For callers that hold a ``CallView`` (``render_call(view)``): its fields
    are already cleaned, so they are only folded and cut here.
    """
    body = view.body
    if not isinstance(body, RefusedBody):
        return None
    header = view.header
    return _receipt(view.tool_call_id, header.tool_name, body.reason, body.guard, header.args)


def view_entry(
    entry: CallEntry, thread: Thread, limits: Limits = DEFAULT_LIMITS
) -> CallView | Receipt:
    """What a thread layout draws for one call: a receipt, or the generic view."""
    return view_receipt(entry, limits) or view_call(entry, thread, limits)


def _receipt(
    tool_call_id: str, tool_name: str, reason: str, guard: str | None, args: str | None
) -> Receipt:
    """Fold and bound the (already cleaned) fields; status from the one table."""
    status = status_for_state("refused")
    return Receipt(
        tool_call_id=tool_call_id,
        tool_name=one_line(tool_name, RECEIPT_NAME_CHARS) or "(unnamed tool)",
        status=status,
        display=STATUS_DISPLAY[status],
        reason=one_line(reason, RECEIPT_REASON_CHARS) or "(no reason given)",
        guard=one_line(guard, RECEIPT_GUARD_CHARS) or None if guard else None,
        args=one_line(args, RECEIPT_ARGS_CHARS) or None if args else None,
    )
