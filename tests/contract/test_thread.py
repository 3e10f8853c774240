"""The message container: pairing, replacement, run lifecycle, call state, notes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.contract.entries import IGNORED_KEPT, CallEntry, MessageEntry, NoteEntry
from toolview.contract.thread import Thread


def result(
    text: str, complete: bool = True, call_id: str = "c1", error: bool = False
) -> ToolResult:
    return ToolResult(call_id, "bash", text, complete, error)


def only_call(thread: Thread) -> CallEntry:
    (entry,) = thread.calls()
    return entry


def test_pairs_a_call_with_its_result_by_id() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "bash", {}), ToolCall("c2", "read", {}), result("two", call_id="c2")]
    )
    first, second = thread.calls()
    assert first.result is None and second.result is not None
    assert second.result.text == "two" and second.call is not None
    assert thread.call("c2") is second and thread.call("nope") is None


def test_a_later_result_replaces_the_earlier_one() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "bash", {}), result("a", False), result("ab", False), result("abc")]
    )
    entry = only_call(thread)
    assert isinstance(entry.result, ToolResult) and entry.result.text == "abc"
    assert thread.state(entry) == "done"


def test_a_late_partial_never_hides_the_final_result() -> None:
    observations = [ToolCall("c1", "b", {}), result("final"), result("x", False)]
    thread = Thread.from_observations(observations)
    entry = only_call(thread)
    assert entry.result == result("final") and thread.state(entry) == "done"
    assert entry.ignored == [] and entry.ignored_total == 0  # legal: no note


def test_after_a_final_success_a_final_error_is_ignored_and_kept() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "b", {}), result("ok"), result("boom", error=True)]
    )
    entry = only_call(thread)
    assert entry.result == result("ok") and thread.state(entry) == "done"
    assert entry.ignored == [result("boom", error=True)] and entry.ignored_total == 1


def test_after_a_final_error_a_final_success_is_ignored_and_kept() -> None:
    thread = Thread.from_observations(
        [ToolCall("c1", "b", {}), result("boom", error=True), result("ok")]
    )
    entry = only_call(thread)
    assert entry.result == result("boom", error=True) and thread.state(entry) == "error"
    assert entry.ignored == [result("ok")]


def test_a_refusal_and_a_result_never_replace_each_other() -> None:
    refusal = ToolRefused("c1", "bash", "no")
    refused_first = only_call(Thread.from_observations([refusal, result("ran anyway")]))
    assert refused_first.result == refusal and refused_first.ignored == [result("ran anyway")]
    thread = Thread.from_observations([result("ok"), refusal])
    assert thread.state(only_call(thread)) == "done" and only_call(thread).ignored == [refusal]


def test_a_second_final_keeps_the_first_descriptor_error() -> None:
    thread = Thread()
    thread.add(result("ok"), descriptor_error="$.x: bad")
    thread.add(result("again"))
    assert only_call(thread).descriptor_error == "$.x: bad"


def test_a_flood_of_second_finals_is_kept_bounded_and_counted() -> None:
    thread = Thread.from_observations([result("first"), *(result(f"n{n}") for n in range(50))])
    entry = only_call(thread)
    assert entry.result == result("first")
    assert [r.text for r in entry.ignored if isinstance(r, ToolResult)] == ["n0", "n1", "n2"]
    assert len(entry.ignored) == IGNORED_KEPT and entry.ignored_total == 50


def test_a_result_without_its_call_is_still_shown() -> None:
    thread = Thread.from_observations([result("orphan", call_id="lost")])
    entry = only_call(thread)
    assert entry.call is None and entry.tool_name == "bash"


def test_run_lifecycle_tells_pending_from_aborted() -> None:
    thread = Thread.from_observations([RunStarted("r1"), ToolCall("c1", "bash", {})])
    entry = only_call(thread)
    assert thread.state(entry) == "pending"
    thread.add(RunEnded("r1", "aborted"))
    assert thread.state(entry) == "aborted" and thread.run_outcome(entry) == "aborted"


def test_a_run_that_says_why_it_ended_closes_with_a_note_its_aborted_calls_give() -> None:
    thread = Thread.from_observations(
        [RunStarted("r1"), ToolCall("c1", "bash", {}), result("tick", complete=False)]
    )
    thread.add(RunEnded("r1", "aborted", "interrupted by SIGINT"))
    entry = only_call(thread)
    assert thread.state(entry) == "aborted" and isinstance(entry.result, ToolResult)
    assert thread.run_reason(entry) == "interrupted by SIGINT"
    assert thread.entries[-1] == NoteEntry("Run ended (aborted): interrupted by SIGINT")


def test_a_run_ended_without_a_reason_adds_no_line_and_forgets_an_old_reason() -> None:
    thread = Thread.from_observations(
        [RunStarted("r1"), ToolCall("c1", "bash", {}), RunEnded("r1", "error", "boom")]
    )
    thread.add(RunStarted("r1"))
    entry = only_call(thread)
    assert thread.run_reason(entry) is None  # open again: nothing ended yet
    thread.add(RunEnded("r1", "completed"))
    assert thread.run_reason(entry) is None
    assert [type(e).__name__ for e in thread.entries] == ["CallEntry", "NoteEntry"]


def test_a_result_after_its_run_ended_still_stands() -> None:
    thread = Thread.from_observations(
        [RunStarted("r1"), ToolCall("c1", "bash", {}), RunEnded("r1", "completed"), result("late")]
    )
    assert thread.state(only_call(thread)) == "done"


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
    assert thread.state(first) == "aborted" and thread.state(second) == "pending"


def test_a_run_started_again_reopens_its_calls() -> None:
    thread = Thread.from_observations(
        [RunStarted("r1"), ToolCall("c1", "a", {}), RunEnded("r1", "error"), RunStarted("r1")]
    )
    assert thread.state(only_call(thread)) == "pending"


def test_a_call_outside_any_run_is_open_until_a_run_ends_and_reopens_with_the_next() -> None:
    thread = Thread.from_observations([ToolCall("c0", "a", {}), RunStarted("r1")])
    entry = only_call(thread)
    assert thread.state(entry) == "pending"
    thread.add(RunEnded("r1", "completed"))
    assert thread.state(entry) == "aborted" and thread.run_outcome(entry) == "completed"
    thread.add(RunStarted("r2"))
    assert thread.state(entry) == "pending"
    thread.add(result("at last", call_id="c0"))
    assert thread.state(entry) == "done"


def test_another_run_ending_leaves_the_open_runs_calls_alone() -> None:
    thread = Thread.from_observations(
        [
            ToolCall("c0", "a", {}),
            RunStarted("r1"),
            ToolCall("c1", "a", {}),
            RunEnded("r9", "error"),
        ]
    )
    outside, inside = thread.calls()
    assert thread.state(outside) == "pending" and thread.state(inside) == "pending"


def test_a_call_first_seen_after_the_run_ended_is_aborted() -> None:
    thread = Thread.from_observations(
        [RunStarted("r1"), RunEnded("r1", "aborted"), ToolCall("c1", "a", {})]
    )
    entry = only_call(thread)
    assert thread.state(entry) == "aborted" and thread.run_outcome(entry) == "aborted"


def test_order_is_kept_and_notes_are_visible_entries() -> None:
    thread = Thread.from_observations([Message("user", "hi"), ToolCall("c1", "a", {})])
    thread.note("line 3 skipped")
    thread.add(ToolRefused("c1", "a", "no"))
    kinds = [type(entry) for entry in thread.entries]
    assert kinds == [MessageEntry, CallEntry, NoteEntry]
    assert isinstance(thread.calls()[0].result, ToolRefused)
    assert thread.state(thread.calls()[0]) == "refused"


CALLS = st.sampled_from(["c1", "c2", "c3"])
RUNS = st.sampled_from(["r1", "r2"])
OBSERVATIONS = st.one_of(
    st.builds(ToolCall, CALLS, st.just("t"), st.just({})),
    st.builds(
        ToolResult, CALLS, st.just("t"), st.sampled_from(["a", "b"]), st.booleans(), st.booleans()
    ),
    st.builds(ToolRefused, CALLS, st.just("t"), st.just("no")),
    st.builds(RunStarted, RUNS),
    st.builds(RunEnded, RUNS, st.sampled_from(["completed", "aborted", "error"])),
)
FINAL_STATE = {(True, False): "done", (True, True): "error"}


@given(st.lists(OBSERVATIONS, max_size=30))
def test_each_machine_agrees_with_the_fixed_order(observations: list[Observation]) -> None:
    """The live state is the design's order: the FIRST final result, else the run's table."""
    thread = Thread.from_observations(observations)
    for entry in thread.calls():
        finals = [
            o
            for o in observations
            if isinstance(o, ToolRefused | ToolResult)
            and o.tool_call_id == entry.tool_call_id
            and (isinstance(o, ToolRefused) or o.complete)
        ]
        state = thread.state(entry)
        if finals:
            first = finals[0]
            expected = (
                "refused" if isinstance(first, ToolRefused) else FINAL_STATE[(True, first.is_error)]
            )
            assert (state, entry.result) == (expected, first)
            assert entry.ignored_total == len(finals) - 1
            assert entry.ignored == finals[1 : 1 + IGNORED_KEPT]
        else:
            assert state == ("aborted" if thread.run_outcome(entry) is not None else "pending")
