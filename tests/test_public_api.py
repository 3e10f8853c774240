"""The public API is pinned: a change to it is a deliberate change to this list."""

from __future__ import annotations

import subprocess
import sys

import pytest

import toolview

PUBLIC = {
    "CALL_STATE_TRANSITIONS",
    "FINAL_STATES",
    "KIND_PROPS",
    "METADATA_KEY",
    "STATUS_DISPLAY",
    "TEXT_KIND",
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
    "StoredOutput",
    "TableProps",
    "TodoItem",
    "TodoProps",
    "TodoStatus",
    "Thread",
    "ToolCall",
    "ToolDecision",
    "ToolRefused",
    "ToolResult",
    "ToolWaiting",
    "Truncation",
    "TruncationUnit",
    "Usage",
    "decode_observation",
    "display_status",
    "encode_observation",
    "is_partial",
    "parse_envelope",
    "read_descriptor",
    "validate_props",
    # beside the contract: what a Python agent needs to be shown (issue 16)
    "AsyncPublisher",
    "BackgroundPublisher",
    "Publisher",
    "Recorder",
    "capture",
    "describe",
}

BESIDE_THE_CONTRACT = {
    "AsyncPublisher": "toolview.remote",
    "BackgroundPublisher": "toolview.remote",
    "Publisher": "toolview.remote",
    "Recorder": "toolview.recording",
    "capture": "toolview.recording",
    "describe": "toolview.contract.describe",
}


def test_all_is_pinned() -> None:
    assert set(toolview.__all__) == PUBLIC


def test_every_name_in_all_exists() -> None:
    for name in toolview.__all__:
        assert hasattr(toolview, name), name


def test_the_names_are_the_contract_s_own() -> None:
    """The pinned list is the contract's plus the names beside it, each its own module's."""
    import importlib

    import toolview.contract

    contract = toolview.contract.__all__
    assert set(toolview.__all__) - set(BESIDE_THE_CONTRACT) == set(contract)
    for name in contract:
        assert getattr(toolview, name) is getattr(toolview.contract, name), name
    for name, module in BESIDE_THE_CONTRACT.items():
        assert getattr(toolview, name) is getattr(importlib.import_module(module), name), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Descriptr'"):
        _ = toolview.Descriptr  # type: ignore[attr-defined]


def test_import_toolview_imports_no_contract_yet() -> None:
    """``import toolview`` stays light: the contract (msgspec and all) loads on first use."""
    probe = (
        "import sys, toolview; loaded = sorted(sys.modules)\n"
        "print(' '.join(m for m in loaded if m.startswith(('toolview', 'msgspec'))))\n"
        "toolview.ToolCall; print('msgspec' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[:2] == ["toolview", "True"]
