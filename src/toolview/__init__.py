"""toolview: render AI-agent tool results on every surface, from one payload, safely.

The public API is the contract (design.md §1), re-exported here under the very
names ``toolview.contract.__all__`` lists (a test holds them equal), plus what a
Python agent needs to be shown: ``capture`` and its ``Recorder``, ``describe``
and the publishers (``_ELSEWHERE`` says where each lives); surfaces, hosts and
the server live in their own subpackages.

Why the names are looked up on first use (PEP 562) rather than imported here:
every ``toolview.*`` import runs this module first, and the contract costs
msgspec and the compiled secret patterns — the ``toolview`` command's
``--help`` would pay for them. Type checkers see the plain imports below.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (PEP 781)
if TYPE_CHECKING:
    from toolview.contract import (
        CALL_STATE_TRANSITIONS,
        FINAL_STATES,
        KIND_PROPS,
        METADATA_KEY,
        STATUS_DISPLAY,
        TEXT_KIND,
        CallEntry,
        CallEvent,
        CallState,
        CallStateMachine,
        Descriptor,
        DiffProps,
        DisplayStatus,
        Entry,
        Envelope,
        FileProps,
        IllegalTransition,
        ImageProps,
        JsonProps,
        Link,
        LinksProps,
        MarkdownProps,
        Message,
        MessageEntry,
        NoteEntry,
        Observation,
        ObservationError,
        PropsError,
        RunEnded,
        RunOutcome,
        RunStarted,
        ShellProps,
        StatusDisplay,
        StoredOutput,
        TableProps,
        Thread,
        TodoItem,
        TodoProps,
        TodoStatus,
        ToolCall,
        ToolDecision,
        ToolRefused,
        ToolResult,
        ToolWaiting,
        Truncation,
        TruncationUnit,
        Usage,
        decode_observation,
        display_status,
        encode_observation,
        is_partial,
        parse_envelope,
        read_descriptor,
        validate_props,
    )
    from toolview.contract.describe import describe
    from toolview.recording import Recorder, capture
    from toolview.remote import AsyncPublisher, BackgroundPublisher, Publisher

__all__ = [
    "CALL_STATE_TRANSITIONS",
    "FINAL_STATES",
    "KIND_PROPS",
    "METADATA_KEY",
    "STATUS_DISPLAY",
    "TEXT_KIND",
    "AsyncPublisher",
    "BackgroundPublisher",
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
    "Publisher",
    "Recorder",
    "RunEnded",
    "RunOutcome",
    "RunStarted",
    "ShellProps",
    "StatusDisplay",
    "StoredOutput",
    "TableProps",
    "Thread",
    "TodoItem",
    "TodoProps",
    "TodoStatus",
    "ToolCall",
    "ToolDecision",
    "ToolRefused",
    "ToolResult",
    "ToolWaiting",
    "Truncation",
    "TruncationUnit",
    "Usage",
    "capture",
    "decode_observation",
    "describe",
    "display_status",
    "encode_observation",
    "is_partial",
    "parse_envelope",
    "read_descriptor",
    "validate_props",
]

_ELSEWHERE = {
    "AsyncPublisher": "toolview.remote",
    "BackgroundPublisher": "toolview.remote",
    "Publisher": "toolview.remote",
    "Recorder": "toolview.recording",
    "capture": "toolview.recording",
    "describe": "toolview.contract.describe",
}

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """A public name, imported on first use and kept (PEP 562)."""
        if name not in __all__:
            raise AttributeError(f"module 'toolview' has no attribute {name!r}")
        import importlib

        module = importlib.import_module(_ELSEWHERE.get(name, "toolview.contract"))
        value = getattr(module, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        """The module's names, the contract's included (for completion)."""
        return sorted({*globals(), *__all__})
