"""``sub_agents_first``: a server thread given with each sub-agent before its call's result.

The real ``show URL`` on watched Claude Code and Codex sessions is
tests/server/test_watch_finish.py; here the order itself, nested sub-agents
included, and that a streamed ``Thread`` then draws no call without its
tool-call (the phantom "(unnamed tool)").
"""

from __future__ import annotations

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
)
from toolview.remote.sub_agents_first import sub_agents_first
from toolview.render.stream import ThreadStream
from toolview.render.text import stream_shape
from toolview.wire.feed import LogItem


def call(call_id: str, parent: str | None = None) -> ToolCall:
    mark = {"parent_call_id": parent} if parent else {}
    return ToolCall(tool_call_id=call_id, tool_name=f"tool-{call_id}", args={}, **mark)


def result(call_id: str, parent: str | None = None, *, complete: bool = True) -> ToolResult:
    mark = {"parent_call_id": parent} if parent else {}
    return ToolResult(
        call_id, f"tool-{call_id}", f"out {call_id}", complete=complete, is_error=False, **mark
    )


def named(observation: Observation) -> str:
    kind = type(observation).__name__
    return f"{kind}:{getattr(observation, 'tool_call_id', getattr(observation, 'run_id', ''))}"


def reordered(observations: list[Observation]) -> list[str]:
    items = [LogItem(seq, o) for seq, o in enumerate(observations, start=1)]
    return [named(o) for o in sub_agents_first(lambda: iter(items))]


def test_a_result_waits_for_its_sub_agents_last_observation_nested_ones_too() -> None:
    log: list[Observation] = [
        RunStarted(run_id="main"),
        call("a"),
        result("a", complete=False),  # a partial stays where it was
        result("a"),  # answered at once (a Codex spawn)
        call("b", "a"),  # a's sub-agent runs b …
        result("b", "a"),
        call("c", "b"),  # … whose own sub-agent goes on after b's result
        Message("assistant", "done", parent_call_id="c"),
        result("c", "b"),
        RunEnded(run_id="main", outcome="completed"),
    ]
    assert reordered(log) == [
        "RunStarted:main",
        "ToolCall:a",
        "ToolResult:a",  # the partial
        "ToolCall:b",
        "ToolCall:c",
        "Message:",
        "ToolResult:c",
        "ToolResult:b",  # after c, which ran in b's sub-agent
        "ToolResult:a",  # after b's result, marked with a
        "RunEnded:main",
    ]


def test_a_thread_in_order_already_is_given_as_it_is() -> None:
    log: list[Observation] = [call("a"), call("b", "a"), result("b", "a"), result("a")]
    assert reordered(log) == [named(o) for o in log]


def test_streamed_the_sub_agent_is_drawn_under_its_call_not_a_phantom() -> None:
    log: list[Observation] = [call("a"), result("a"), call("b", "a"), result("b", "a")]
    items = [LogItem(seq, o) for seq, o in enumerate(log, start=1)]
    written: list[str] = []
    stream = ThreadStream(stream_shape(), written.append)
    for observation in sub_agents_first(lambda: iter(items)):
        stream.add(observation)
    stream.close()
    text = "".join(written)
    assert "(unnamed tool)" not in text and "tool-b" in text
    assert "2 calls" not in text  # b is the sub-agent's call, not a second one of the thread
