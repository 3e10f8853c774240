"""The sans-IO core: every wire shape, declared once (design.md §1)."""

from toolview.contract.call_state import (
    CALL_STATE_TRANSITIONS,
    CallEvent,
    CallState,
    CallStateMachine,
    IllegalTransition,
    tool_result_state,
)
from toolview.contract.descriptor import (
    METADATA_KEY,
    Descriptor,
    Truncation,
    TruncationUnit,
    read_descriptor,
)
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
)
from toolview.contract.status import (
    STATUS_DISPLAY,
    DisplayStatus,
    StatusDisplay,
    display_status,
)

__all__ = [
    "CALL_STATE_TRANSITIONS",
    "METADATA_KEY",
    "STATUS_DISPLAY",
    "CallEvent",
    "CallState",
    "CallStateMachine",
    "Descriptor",
    "DisplayStatus",
    "Envelope",
    "IllegalTransition",
    "Message",
    "Observation",
    "ObservationError",
    "RunEnded",
    "RunOutcome",
    "RunStarted",
    "StatusDisplay",
    "ToolCall",
    "ToolRefused",
    "ToolResult",
    "Truncation",
    "TruncationUnit",
    "decode_observation",
    "display_status",
    "encode_observation",
    "parse_envelope",
    "read_descriptor",
    "tool_result_state",
]
