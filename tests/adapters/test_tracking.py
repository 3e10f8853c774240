"""The adapters' call tracker reads the call ledger: open, closed and seen as ``Thread`` says."""

from __future__ import annotations

from toolview.adapters.tracking import CallTracker
from toolview.contract import ToolCall, ToolRefused, ToolResult


def _result(call: str, *, complete: bool = True, is_error: bool = False) -> ToolResult:
    return ToolResult(call, "shell", "out", complete=complete, is_error=is_error)


def test_calls_stay_open_until_a_final_result_in_the_order_they_were_called() -> None:
    tracker = CallTracker()
    for observation in [
        ToolCall("b", "shell", {}),
        ToolCall("a", "shell", {}),
        ToolCall("c", "shell", {}),
        _result("a", complete=False),
        ToolRefused("c", "shell", "no"),
    ]:
        tracker(observation)
    assert tracker.open_calls() == ["b", "a"]
    assert tracker.is_open("a") and not tracker.is_open("c")


def test_a_result_before_its_call_closes_it_and_a_second_final_changes_nothing() -> None:
    tracker = CallTracker()
    for observation in [
        _result("a"),
        ToolCall("a", "shell", {}),
        _result("a", is_error=True),
        _result("ghost", complete=False),
    ]:
        tracker(observation)
    assert tracker.seen("a") and not tracker.is_open("a")
    assert not tracker.seen("ghost")
    assert tracker.open_calls() == []
