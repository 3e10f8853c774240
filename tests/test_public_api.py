"""The public API is pinned: a change to it is a deliberate change to this list."""

from __future__ import annotations

import toolview

PUBLIC = {
    "CALL_STATE_TRANSITIONS",
    "FINAL_STATES",
    "KIND_PROPS",
    "METADATA_KEY",
    "STATUS_DISPLAY",
    "CallEntry",
    "CallEvent",
    "CallState",
    "CallStateMachine",
    "Descriptor",
    "DiffProps",
    "DisplayStatus",
    "Entry",
    "Envelope",
    "FileProps",
    "IllegalTransition",
    "ImageProps",
    "JsonProps",
    "Link",
    "LinksProps",
    "MarkdownProps",
    "Message",
    "MessageEntry",
    "NoteEntry",
    "Observation",
    "ObservationError",
    "PropsError",
    "RunEnded",
    "RunOutcome",
    "RunStarted",
    "ShellProps",
    "StatusDisplay",
    "TableProps",
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
    "validate_props",
}


def test_all_is_pinned() -> None:
    assert set(toolview.__all__) == PUBLIC


def test_every_name_in_all_exists() -> None:
    for name in toolview.__all__:
        assert hasattr(toolview, name), name
