"""Sub-agents as child threads: marked observations go under the call that ran them."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from toolview.contract import (
    Message,
    MessageEntry,
    NoteEntry,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
    Usage,
)

Obs = TypeVar("Obs", ToolCall, ToolResult, Message, Usage, RunEnded)


def under(parent: str, observation: Obs) -> Obs:
    return msgspec.structs.replace(observation, parent_call_id=parent)


def ok(call_id: str, text: str = "ok") -> ToolResult:
    return ToolResult(call_id, "tool", text, True, False)


def agent_thread() -> Thread:
    """An Agent call whose sub-agent runs three calls (one fails, one runs a sub-agent)."""
    return Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("agent", "Agent", {"prompt": "look"}),
            under("agent", Message("user", "look")),
            under("agent", ToolCall("s1", "Bash", {"command": "ls"})),
            under("agent", ok("s1")),
            under("agent", ToolCall("s2", "Read", {"path": "x"})),
            ToolResult("s2", "Read", "no such file", True, True),  # unmarked: its id says where
            under("agent", ToolCall("s3", "Task", {"prompt": "deeper"})),
            under("s3", ToolCall("g1", "Grep", {})),
            under("s3", ok("g1")),
            under("agent", ok("s3", "found")),
            under("agent", Usage(model="m", input_tokens=10, output_tokens=2)),
            ok("agent", "the answer"),
        ]
    )


def test_marked_observations_form_the_child_thread_in_order() -> None:
    thread = agent_thread()
    assert [call.tool_call_id for call in thread.calls()] == ["agent"]
    child = thread.child("agent")
    assert child is not None
    assert [type(e).__name__ for e in child.entries] == ["MessageEntry", *["CallEntry"] * 3]
    assert [call.tool_call_id for call in child.calls()] == ["s1", "s2", "s3"]
    assert [child.state(call) for call in child.calls()] == ["done", "error", "done"]
    assert [usage.input_tokens for usage in child.usage] == [10]
    assert thread.usage == []  # the sub-agent's turns are its own


def test_marks_of_marks_nest_and_every_call_knows_the_call_above_it() -> None:
    thread = agent_thread()
    child = thread.child("agent")
    assert child is not None
    grandchild = child.child("s3")
    assert grandchild is not None and [c.tool_call_id for c in grandchild.calls()] == ["g1"]
    assert [thread.top_call_id(i) for i in ("agent", "s2", "g1", "nope")] == [
        "agent",
        "agent",
        "agent",
        None,
    ]
    assert thread.call("s1") is None  # the thread's own calls only


def test_a_call_is_settled_only_when_its_sub_agent_is() -> None:
    thread = Thread.from_observations(
        [ToolCall("agent", "Agent", {}), under("agent", ToolCall("s1", "Bash", {})), ok("agent")]
    )
    entry = thread.call("agent")
    assert entry is not None and thread.state(entry) == "done"
    assert not thread.settled(entry)
    thread.add(under("agent", ok("s1")))
    assert thread.settled(entry)


def test_a_mark_naming_a_call_never_seen_keeps_its_sub_agent_under_a_placeholder() -> None:
    thread = Thread.from_observations(
        [RunStarted("r"), under("ghost", ToolCall("s1", "Bash", {})), under("ghost", ok("s1"))]
    )
    placeholder = thread.call("ghost")
    assert placeholder is not None and placeholder.orphan == "unseen"
    assert placeholder.call is None and thread.state(placeholder) == "pending"
    child = thread.child("ghost")
    assert child is not None and [c.tool_call_id for c in child.calls()] == ["s1"]
    thread.add(ToolCall("ghost", "Agent", {}))  # it turns up: it fills the placeholder in
    assert thread.calls() == [placeholder] and placeholder.tool_name == "Agent"


def test_a_run_that_ends_aborts_the_sub_agent_s_open_calls_too() -> None:
    thread = Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("agent", "Agent", {}),
            under("agent", ToolCall("s1", "Bash", {})),
            RunEnded("r", "aborted", "interrupted"),
        ]
    )
    child = thread.child("agent")
    assert child is not None
    [call] = child.calls()
    assert child.state(call) == "aborted" and child.run_reason(call) == "interrupted"
    thread.add(RunStarted("r"))
    assert child.state(call) == "pending"


def test_release_forgets_the_sub_agent_and_a_late_result_for_it_is_a_note() -> None:
    thread = agent_thread()
    entry = thread.call("agent")
    assert entry is not None
    thread.drain()
    thread.release(entry)
    assert thread.child("agent") is None and thread.top_call_id("g1") is None
    thread.add(ok("g1", "again"))
    [note] = thread.entries
    assert isinstance(note, NoteEntry) and note.late is not None and "g1 (Grep)" in note.text


def test_a_sub_agent_of_a_released_call_is_still_shown_under_a_late_placeholder() -> None:
    thread = Thread.from_observations([ToolCall("agent", "Agent", {}), ok("agent")])
    entry = thread.call("agent")
    assert entry is not None
    thread.drain()
    thread.release(entry)
    thread.add(under("agent", Message("assistant", "I was late")))
    placeholder = thread.call("agent")
    assert placeholder is not None and placeholder.orphan == "late"
    child = thread.child("agent")
    assert child is not None and isinstance(child.entries[0], MessageEntry)


def test_a_call_marked_as_its_own_sub_agent_s_is_the_thread_s_own() -> None:
    thread = Thread.from_observations([under("a", ToolCall("a", "Bash", {})), under("a", ok("a"))])
    entry = thread.call("a")
    assert entry is not None and thread.state(entry) == "done" and thread.child("a") is None


def test_a_chain_of_marks_deeper_than_the_bound_stays_shallow_and_whole() -> None:
    from toolview.contract.thread import MAX_NESTING

    observations: list[object] = [RunStarted("r"), ToolCall("c0", "Agent", {})]
    for n in range(1, 500):
        observations.append(under(f"c{n - 1}", ToolCall(f"c{n}", "Agent", {})))
    observations.append(RunEnded("r", "aborted", "stopped"))
    thread = Thread.from_observations(observations)  # type: ignore[arg-type]
    levels, holder = 0, thread
    while (nested := next(iter(holder._children.values()), None)) is not None:
        holder, levels = nested, levels + 1
    assert levels == MAX_NESTING
    assert len(holder.calls()) == 500 - MAX_NESTING  # the rest, kept at the deepest level
    entry = thread.call("c0")
    assert entry is not None and not thread.settled(entry)
