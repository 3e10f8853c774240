"""``Thread.drain`` and ``Thread.release``: a stream forgets a drawn call, not its id."""

from __future__ import annotations

import pytest

from toolview.contract import CallEntry, NoteEntry, Thread, ToolCall, ToolRefused, ToolResult


def drawn_call() -> tuple[Thread, CallEntry]:
    thread = Thread.from_observations(
        [ToolCall("c1", "bash", {}), ToolResult("c1", "bash", "out", True, False)]
    )
    (entry,) = thread.drain()
    assert isinstance(entry, CallEntry) and thread.entries == []
    thread.release(entry)
    return thread, entry


def test_an_open_call_cannot_be_released() -> None:
    thread = Thread.from_observations([ToolCall("c1", "bash", {})])
    (entry,) = thread.drain()
    assert isinstance(entry, CallEntry)
    with pytest.raises(ValueError, match="not final"):
        thread.release(entry)
    assert thread.state(entry) == "pending"  # nothing changed


def test_a_released_call_is_forgotten() -> None:
    thread, _ = drawn_call()
    assert thread.call("c1") is None


def test_a_late_final_result_or_refusal_is_a_note_and_no_new_call() -> None:
    thread, _ = drawn_call()
    late = ToolResult("c1", "bash", "second", True, True)
    thread.add(late)
    thread.add(ToolRefused("c1", "bash", "no"))
    notes = thread.drain()
    assert [(n.text, n.late) for n in notes if isinstance(n, NoteEntry)] == [
        ("call c1 (bash): ", late),
        ("call c1 (bash): ", ToolRefused("c1", "bash", "no")),
    ]
    assert thread.call("c1") is None


def test_a_late_partial_changes_nothing_and_a_late_call_is_a_note() -> None:
    thread, _ = drawn_call()
    thread.add(ToolResult("c1", "bash", "partial", False, False))
    assert thread.entries == []
    thread.add(ToolCall("c1", "bash", {"again": True}))
    assert thread.drain() == [
        NoteEntry("call c1 (bash): its tool-call came again after the call was drawn; ignored")
    ]
