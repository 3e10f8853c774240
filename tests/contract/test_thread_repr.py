"""``repr(thread)`` and ``str(thread)``: counts only, never a tool's text (or a secret)."""

from __future__ import annotations

from toolview import Message, RunEnded, RunStarted, Thread, ToolCall, ToolRefused, ToolResult

SECRET = "ghp_" + "a1B2c3" * 6


def _result(call_id: str, *, is_error: bool = False) -> ToolResult:
    return ToolResult(
        tool_call_id=call_id,
        tool_name="t",
        text=f"output {SECRET}",
        complete=True,
        is_error=is_error,
    )


def test_repr_counts_calls_by_outcome_and_messages() -> None:
    thread = Thread.from_observations(
        [
            RunStarted(run_id="r"),
            Message(role="user", text=f"my key is {SECRET}"),
            ToolCall(tool_call_id="a", tool_name=f"tool {SECRET}", args={"key": SECRET}),
            _result("a"),
            ToolCall(tool_call_id="b", tool_name="t", args={}),
            _result("b", is_error=True),
            ToolCall(tool_call_id="c", tool_name="t", args={}),
            ToolRefused(tool_call_id="c", tool_name="t", reason=SECRET),
            ToolCall(tool_call_id="d", tool_name="t", args={}),
        ]
    )
    expected = "Thread(4 calls: 1 succeeded, 1 failed, 1 refused, 1 running; 1 message)"
    assert repr(thread) == expected and str(thread) == expected
    assert f"{thread}" == expected and SECRET not in repr([thread])
    thread.add(RunEnded(run_id="r", outcome="aborted", reason=SECRET))
    assert repr(thread) == "Thread(4 calls: 1 succeeded, 1 failed, 1 refused, 1 aborted; 1 message)"


def test_an_empty_thread() -> None:
    assert repr(Thread()) == "Thread(0 calls)"
    one = Thread.from_observations([ToolCall(tool_call_id="a", tool_name="t", args={})])
    assert repr(one) == "Thread(1 call: 1 running)"
