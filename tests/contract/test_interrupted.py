"""A call cut short by a signal: its output so far as its final, failed result."""

from __future__ import annotations

import signal

from toolview.contract import Descriptor, RunStarted, ToolCall, ToolResult, Truncation
from toolview.contract.interrupted import (
    interrupted_calls,
    interrupted_exit_code,
    interrupted_reason,
    interrupted_result,
)
from toolview.contract.thread import Thread

SHELL = {"command": "make", "exitCode": None, "stdout": "tick1\n", "stderr": ""}


def test_the_reason_and_exit_code_follow_the_shells_convention() -> None:
    assert interrupted_reason(signal.SIGINT) == "interrupted by SIGINT"
    assert interrupted_reason(signal.SIGTERM) == "interrupted by SIGTERM"
    assert (interrupted_exit_code(signal.SIGINT), interrupted_exit_code(signal.SIGTERM)) == (
        130,
        143,
    )
    assert interrupted_reason(200) == "interrupted by signal 200"


def test_a_shell_partial_becomes_a_failed_final_with_its_exit_code() -> None:
    descriptor = Descriptor("shell", SHELL, Truncation(1, 9, "lines"))
    partial = ToolResult("c1", "shell", "tick1", False, False, descriptor)
    final = interrupted_result(partial, partial, signal.SIGINT)
    assert final.complete and final.is_error
    assert final.text == "tick1\ninterrupted by SIGINT\n"
    assert isinstance(final.descriptor, Descriptor)
    assert final.descriptor.props == {**SHELL, "exitCode": 130}
    assert final.descriptor.truncated == Truncation(1, 9, "lines")


def test_other_descriptors_are_kept_and_no_output_still_says_why() -> None:
    odd = Descriptor("shell", {"command": 3})  # not a shell's props: left as they are
    partial = ToolResult("c1", "t", "half\n", False, False, odd)
    assert interrupted_result(partial, partial, signal.SIGINT).descriptor == odd
    call = ToolCall("c2", "fetch", {})
    bare = interrupted_result(call, None, signal.SIGTERM)
    assert (bare.tool_call_id, bare.tool_name, bare.text) == (
        "c2",
        "fetch",
        "interrupted by SIGTERM\n",
    )


def test_only_the_calls_in_flight_get_a_final_result() -> None:
    thread = Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("done", "t", {}),
            ToolResult("done", "t", "ok", True, False),
            ToolCall("silent", "t", {}),
            ToolCall("talking", "t", {}),
            ToolResult("talking", "t", "so far\n", False, False),
        ]
    )
    finals = interrupted_calls(thread, signal.SIGINT)
    assert [(f.tool_call_id, f.text) for f in finals] == [
        ("silent", "interrupted by SIGINT\n"),
        ("talking", "so far\ninterrupted by SIGINT\n"),
    ]
    for final in finals:
        thread.add(final)
    assert interrupted_calls(thread, signal.SIGINT) == []
