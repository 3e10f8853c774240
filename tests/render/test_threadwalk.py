"""The shared thread walk: one part per entry in order, the summary only for several calls."""

from __future__ import annotations

from render_samples import conversation, refused_thread, summary_thread

from toolview.contract import CallEntry, Message, Thread, ToolCall, ToolResult
from toolview.render import DEFAULT_LIMITS, CallView, Receipt
from toolview.render.threadwalk import ThreadParts, walk_thread

# Each part names what the walk handed over, so the test sees order and kind.
NAMES = ThreadParts[str](
    call=lambda view, entry: (
        f"receipt:{entry.tool_call_id}"
        if isinstance(view, Receipt)
        else f"call:{entry.tool_call_id}:{view.state}"
    ),
    message=lambda entry: f"message:{entry.message.role}",
    note=lambda entry: f"note:{entry.text}",
    summary=lambda summary: f"summary:{summary.total}",
)


def test_parts_in_thread_order_then_the_summary() -> None:
    parts = walk_thread(summary_thread(), DEFAULT_LIMITS, NAMES)
    assert parts[:4] == ["call:c1:done", "call:c2:done", "call:c3:error", "receipt:c4"]
    assert parts[-2:] == ["message:assistant", "summary:7"]
    assert len(parts) == 9


def test_one_call_has_no_summary() -> None:
    assert walk_thread(refused_thread(), DEFAULT_LIMITS, NAMES) == ["receipt:c1"]


def test_messages_only_have_no_summary() -> None:
    parts = walk_thread(conversation(), DEFAULT_LIMITS, NAMES)
    assert parts == ["message:user", "message:assistant"]


def test_a_note_is_its_own_part_in_place() -> None:
    thread = Thread.from_observations([Message("user", "hi")])
    thread.note("line 2 could not be read")
    thread.add(Message("assistant", "ok"))
    parts = walk_thread(thread, DEFAULT_LIMITS, NAMES)
    assert parts == ["message:user", "note:line 2 could not be read", "message:assistant"]


def test_the_call_part_gets_the_decided_view() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "read", {}), ToolResult("c1", "read", "", True, False)]
    )
    views: list[CallView | Receipt] = []

    def keep(view: CallView | Receipt, entry: CallEntry) -> str:
        views.append(view)
        return entry.tool_call_id

    parts = ThreadParts[str](
        call=keep,
        message=NAMES.message,
        note=NAMES.note,
        summary=NAMES.summary,
    )
    assert walk_thread(thread, DEFAULT_LIMITS, parts) == ["c1"]
    assert isinstance(views[0], CallView)
    assert views[0].header.tool_name == "read"
