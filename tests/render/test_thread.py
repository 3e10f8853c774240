"""The message container: pairing, replacement, run lifecycle, orphans, notes."""

from __future__ import annotations

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolRefused, ToolResult
from toolview.render import CallEntry, MessageEntry, NoteEntry, Thread


def result(text: str, complete: bool = True, call_id: str = "c1") -> ToolResult:
    return ToolResult(call_id, "bash", text, complete, False)


def test_pairs_a_call_with_its_result_by_id() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "bash", {}), ToolCall("c2", "read", {}), result("two", call_id="c2")]
    )
    first, second = thread.calls()
    assert first.result is None and second.result is not None
    assert second.result.text == "two" and second.call is not None


def test_a_later_result_replaces_the_earlier_one() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "bash", {}), result("a", False), result("ab", False), result("abc")]
    )
    (entry,) = thread.calls()
    assert isinstance(entry.result, ToolResult) and entry.result.text == "abc"


def test_a_late_partial_never_hides_the_final_result() -> None:
    observations = [ToolCall("c1", "b", {}), result("final"), result("x", False)]
    thread = Thread.from_observations(observations)
    assert thread.calls()[0].result == result("final")


def test_a_result_without_its_call_is_still_shown() -> None:
    thread = Thread.from_observations([result("orphan", call_id="lost")])
    (entry,) = thread.calls()
    assert entry.call is None and entry.tool_name == "bash"


def test_run_lifecycle_tells_pending_from_aborted() -> None:
    thread = Thread.from_observations([RunStarted("r1"), ToolCall("c1", "bash", {})])
    entry = thread.calls()[0]
    assert thread.run_open(entry)
    thread.add(RunEnded("r1", "aborted"))
    assert not thread.run_open(entry) and thread.run_outcome(entry) == "aborted"


def test_each_call_belongs_to_its_own_run() -> None:
    thread = Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "a", {}),
            RunEnded("r1", "completed"),
            RunStarted("r2"),
            ToolCall("c2", "b", {}),
        ]
    )
    first, second = thread.calls()
    assert not thread.run_open(first) and thread.run_open(second)


def test_order_is_kept_and_notes_are_visible_entries() -> None:
    thread = Thread.from_observations([Message("user", "hi"), ToolCall("c1", "a", {})])
    thread.note("line 3 skipped")
    thread.add(ToolRefused("c1", "a", "no"))
    kinds = [type(entry) for entry in thread.entries]
    assert kinds == [MessageEntry, CallEntry, NoteEntry]
    assert isinstance(thread.calls()[0].result, ToolRefused)
