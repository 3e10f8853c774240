"""Display status: a closed union and ONE table every surface reads.

No surface branches on status by itself; it looks the status up here for its
label, icon, colour and ARIA text. Status is never inferred from text: it comes
from the call's state and, where there is one, its envelope's ``status``.
"""

from __future__ import annotations

from contextlib import suppress
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, get_args

import msgspec

from toolview.contract.call_state import CallState
from toolview.contract.descriptor import Descriptor
from toolview.contract.envelope import Envelope, parse_envelope
from toolview.contract.observations import ToolResult
from toolview.contract.props import PropsError, validate_props

if TYPE_CHECKING:
    from collections.abc import Mapping

    from toolview.contract.entries import CallEntry

__all__ = [
    "ENVELOPE_STATUS_ALIASES",
    "STATUS_DISPLAY",
    "DisplayStatus",
    "StatusDisplay",
    "SummaryKey",
    "call_status",
    "display_status",
]

DisplayStatus: TypeAlias = Literal[
    "running",
    "success",
    "needs_input",
    "not_found",
    "denied",
    "error",
    "timeout",
    "cancelled",
    "unknown",
]

SummaryKey: TypeAlias = DisplayStatus | Literal["refused"]
"""How a summary counts a call: its display status, or ``refused`` (a guard stopped it)."""


class StatusDisplay(msgspec.Struct, frozen=True):
    """How one status looks: the words, the glyph, the colour, the spoken text."""

    label: str
    icon: str
    colour: str
    aria: str


STATUS_DISPLAY: Final[Mapping[DisplayStatus, StatusDisplay]] = MappingProxyType(
    {
        "running": StatusDisplay("Running", "◌", "cyan", "Tool call running"),
        "success": StatusDisplay("Success", "✓", "green", "Tool call succeeded"),
        "needs_input": StatusDisplay("Needs input", "?", "magenta", "Tool call needs input"),
        "not_found": StatusDisplay("Not found", "∅", "yellow", "Tool call found nothing"),
        "denied": StatusDisplay("Denied", "⊘", "red", "Tool call denied"),
        "error": StatusDisplay("Error", "✗", "red", "Tool call failed"),
        "timeout": StatusDisplay("Timed out", "⏱", "yellow", "Tool call timed out"),
        "cancelled": StatusDisplay("Cancelled", "■", "bright_black", "Tool call cancelled"),
        "unknown": StatusDisplay("Unknown", "•", "blue", "Tool call status unknown"),
    }
)

# Common spellings tools use for the same statuses; anything else is `unknown`.
ENVELOPE_STATUS_ALIASES: Final[Mapping[str, DisplayStatus]] = MappingProxyType(
    {
        **{status: status for status in get_args(DisplayStatus)},
        "ok": "success",
        "succeeded": "success",
        "completed": "success",
        "failed": "error",
        "failure": "error",
        "notfound": "not_found",
        "forbidden": "denied",
        "unauthorized": "denied",
        "permission_denied": "denied",
        "refused": "denied",
        "timed_out": "timeout",
        "canceled": "cancelled",
        "input_required": "needs_input",
        "pending": "running",
        "in_progress": "running",
    }
)

_STATE_STATUS: Final[Mapping[CallState, DisplayStatus]] = MappingProxyType(
    {
        "pending": "running",
        "needs_input": "needs_input",
        "aborted": "cancelled",
        "error": "error",
        "done": "success",
        "refused": "denied",
    }
)


def display_status(state: CallState, envelope: Envelope | None = None) -> DisplayStatus:
    """The display status of a call in ``state`` with its (optional) envelope.

    The envelope's status drives a finished call; an error result keeps an
    error-family status from its envelope but is never shown as a success.
    """
    base = _STATE_STATUS[state]
    if envelope is None or state not in ("done", "error"):
        return base
    from_envelope = ENVELOPE_STATUS_ALIASES.get(envelope.status.strip().lower(), "unknown")
    if state == "error" and from_envelope in ("success", "running", "unknown"):
        return "error"
    return from_envelope


def call_status(entry: CallEntry, state: CallState) -> SummaryKey:
    """How every consumer counts and shows ``entry`` in ``state`` (the ledger's): one decision.

    Its display status, or ``refused``: an envelope from the text when there
    is no descriptor, or from a descriptor of kind ``envelope`` whose props
    validate. Only a finished call parses anything, once.
    """
    if state == "refused":
        return "refused"
    result = entry.result
    if state not in ("done", "error") or not isinstance(result, ToolResult):
        return display_status(state)
    descriptor = result.descriptor
    envelope = None if isinstance(descriptor, Descriptor) else parse_envelope(result.text)
    if isinstance(descriptor, Descriptor) and (state == "error" or entry.descriptor_error is None):
        with suppress(PropsError):
            props = validate_props(descriptor.kind, descriptor.props)
            if isinstance(props, Envelope):
                envelope = props
    return display_status(state, envelope)
