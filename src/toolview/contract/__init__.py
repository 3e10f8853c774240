"""The sans-IO core: every wire shape, declared once (design.md §1)."""

from toolview.contract.call_state import (
    CALL_STATE_TRANSITIONS,
    FINAL_STATES,
    CallEvent,
    CallState,
    CallStateMachine,
    IllegalTransition,
)
from toolview.contract.descriptor import (
    METADATA_KEY,
    Descriptor,
    Truncation,
    TruncationUnit,
    read_descriptor,
)
from toolview.contract.entries import CallEntry, Entry, MessageEntry, NoteEntry
from toolview.contract.envelope import Envelope, parse_envelope
from toolview.contract.observations import (
    Message,
    Observation,
    ObservationError,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    decode_observation,
    encode_observation,
    is_partial,
)
from toolview.contract.status import (
    STATUS_DISPLAY,
    DisplayStatus,
    StatusDisplay,
    display_status,
)
from toolview.contract.thread import Thread

__all__ = [
    "CALL_STATE_TRANSITIONS",
    "FINAL_STATES",
    "METADATA_KEY",
    "STATUS_DISPLAY",
    "CallEntry",
    "CallEvent",
    "CallState",
    "CallStateMachine",
    "Descriptor",
    "DisplayStatus",
    "Entry",
    "Envelope",
    "IllegalTransition",
    "Message",
    "MessageEntry",
    "NoteEntry",
    "Observation",
    "ObservationError",
    "RunEnded",
    "RunOutcome",
    "RunStarted",
    "StatusDisplay",
    "Thread",
    "ToolCall",
    "ToolRefused",
    "ToolResult",
    "Truncation",
    "TruncationUnit",
    "decode_observation",
    "display_status",
    "encode_observation",
    "is_partial",
    "parse_envelope",
    "read_descriptor",
]
