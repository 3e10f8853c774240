"""ClaudeCodeMapper: pairing by id in any order, runs, usage once a turn, time, marks, bad input."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
    Usage,
)
from toolview.hosts.claude_code import ClaudeCodeMapper, SessionLineError

from .records import SESSION, Record, assistant, call, prompt, result, text, thinking, tool_use


def feed(*records: Any, mapper: ClaudeCodeMapper | None = None) -> list[Observation]:
    mapper = mapper or ClaudeCodeMapper()
    out = [o for record in records for o in mapper.feed(record)]
    return out + mapper.finish()


def of(kind: type, observations: list[Observation]) -> list[Any]:
    return [o for o in observations if isinstance(o, kind)]


def test_a_run_starts_at_the_first_record_and_ends_at_finish() -> None:
    out = feed(prompt("hi"), assistant(text("hello")))
    assert isinstance(out[0], RunStarted) and out[0].run_id == f"claude-{SESSION}"
    assert isinstance(out[-1], RunEnded) and out[-1].outcome == "completed"
    assert [(m.role, m.text) for m in of(Message, out)] == [("user", "hi"), ("assistant", "hello")]


def test_thinking_is_a_thinking_message_and_empty_blocks_are_not_messages() -> None:
    out = feed(prompt("q"), assistant(thinking("let me see"), thinking(""), text("  ")))
    assert [(m.role, m.text) for m in of(Message, out)] == [
        ("user", "q"),
        ("thinking", "let me see"),
    ]


def test_calls_and_results_pair_by_id_in_parallel() -> None:
    out = feed(
        assistant(tool_use("a", "Glob", pattern="*"), message_id="m"),
        assistant(tool_use("b", "Glob", pattern="*.py"), message_id="m"),
        result("b", "x.py", {"filenames": ["x.py"]}),
        result("a", "x.py\ny", {"filenames": ["x.py", "y"]}),
    )
    thread = Thread.from_observations(out)
    assert [(c.tool_call_id, thread.state(c)) for c in thread.calls()] == [
        ("a", "done"),
        ("b", "done"),
    ]


def test_a_result_before_its_call_waits_for_it() -> None:
    out = feed(result("a", "early"), call("a", "Mystery"))
    calls, results = of(ToolCall, out), of(ToolResult, out)
    assert [c.tool_name for c in calls] == ["Mystery"]
    assert results[0].tool_name == "Mystery" and results[0].text == "early"
    assert out.index(calls[0]) < out.index(results[0])


def test_a_result_that_never_meets_its_call_is_shown_under_an_unknown_call() -> None:
    out = feed(prompt("p"), result("ghost", "orphan output"))
    (found,) = of(ToolResult, out)
    assert found.tool_name == "unknown" and found.text.startswith("orphan output")
    assert "no call" in found.text
    assert [c.tool_call_id for c in of(ToolCall, out)] == ["ghost"]


def test_a_call_without_a_result_is_aborted_when_the_session_ends() -> None:
    out = feed(prompt("p"), call("a", "Bash", command="sleep 100"))
    ended = out[-1]
    assert isinstance(ended, RunEnded) and "1 call still without a result" in str(ended.reason)
    thread = Thread.from_observations(out)
    assert [thread.state(c) for c in thread.calls()] == ["aborted"]


def test_repeated_records_are_mapped_once() -> None:
    first_call, first_result = call("a", "Bash", command="ls"), result("a", "x", {"stdout": "x"})
    out = feed(first_call, first_result, first_call, first_result)
    assert len(of(ToolCall, out)) == 1 and len(of(ToolResult, out)) == 1


def test_usage_is_counted_once_per_message_id() -> None:
    out = feed(
        prompt("p"),
        assistant(thinking("t"), message_id="m1", cache_read_input_tokens=7),
        assistant(text("a"), message_id="m1", cache_read_input_tokens=7),
        assistant(tool_use("c", "Bash", command="ls"), message_id="m1", cache_read_input_tokens=7),
        result("c", "x"),
        assistant(text("done"), message_id="m2", output_tokens=5),
    )
    usage = of(Usage, out)
    assert [(u.input_tokens, u.output_tokens, u.cache_read_tokens) for u in usage] == [
        (100, 20, 7),
        (100, 5, msgspec.UNSET),
    ]
    assert len(usage) == 2 and usage[0].model == "claude-opus-4-8"
    assert usage[0].run_id == f"claude-{SESSION}"


def test_a_turn_seen_again_later_is_not_counted_twice() -> None:
    first = assistant(tool_use("a", "Bash", command="ls"), message_id="m1")
    second = assistant(tool_use("b", "Bash", command="pwd"), message_id="m1")
    out = feed(first, result("a", "x"), second, result("b", "y"))
    assert len(of(Usage, out)) == 1


def test_synthetic_messages_have_no_usage() -> None:
    record = assistant(text("No response requested."))
    record["message"]["model"] = "<synthetic>"
    assert of(Usage, feed(record)) == []


def test_every_observation_has_the_record_time_in_utc() -> None:
    record = prompt("p")
    record["timestamp"] = "2026-06-15T12:00:00+02:00"
    bad = assistant(text("a"))
    bad["timestamp"] = "yesterday"
    out = feed(record, bad)
    assert out[0].at == "2026-06-15T10:00:00.000Z"
    (reply,) = [m for m in of(Message, out) if m.role == "assistant"]
    assert reply.at is msgspec.UNSET  # absent, not an error


def test_a_sub_agent_mapper_marks_everything_it_makes() -> None:
    mapper = ClaudeCodeMapper(parent_call_id="toolu_agent")
    record = prompt("sub task", agentId="a1", isSidechain=True)
    out = feed(record, call("s", "Bash", command="ls"), result("s", "x"), mapper=mapper)
    assert out and all(o.parent_call_id == "toolu_agent" for o in out)
    assert out[0].run_id == f"claude-{SESSION}/agent-a1"  # type: ignore[union-attr]


def test_side_chain_records_of_an_older_session_go_under_their_task_call() -> None:
    side: list[Record] = [
        prompt("count the files", isSidechain=True),
        call("s1", "Bash", command="ls | wc -l"),
        result("s1", "2"),
    ]
    side[0]["uuid"], side[1]["parentUuid"], side[1]["uuid"] = "r", "r", "r2"
    side[1]["isSidechain"], side[2]["isSidechain"], side[2]["parentUuid"] = True, True, "r2"
    out = feed(
        prompt("main"),
        call("task", "Task", prompt="count the files", subagent_type="general-purpose"),
        *side,
        result("task", "There are 2."),
        assistant(text("ok"), message_id="m9"),
    )
    marked = [o for o in out if o.parent_call_id == "task"]
    assert [type(o).__name__ for o in marked if not isinstance(o, Usage)] == [
        "RunStarted",
        "Message",
        "ToolCall",
        "ToolResult",
        "RunEnded",
    ]
    task_result = next(o for o in of(ToolResult, out) if o.tool_call_id == "task")
    assert out.index(marked[-1]) < out.index(task_result)
    assert all(not o.parent_call_id for o in out if o not in marked)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{oops", "not JSON"),
        (b"[1, 2]", "not an object"),
        (b'"text"', "not an object"),
        (b'{"no": "type"}', "no `type`"),
        (b'{"type": "user", "message": "hi"}', "without a `message` object"),
        (b'{"type": "assistant", "message": {"content": 5}}', "not text or a list"),
        (b"\xff\xfe", "not"),
    ],
)
def test_a_malformed_line_raises_session_line_error(line: bytes, reason: str) -> None:
    mapper = ClaudeCodeMapper()
    with pytest.raises(SessionLineError, match=reason):
        mapper.feed_line(line)
    assert mapper.feed_line(b'{"type": "user", "message": {"content": "still fine"}}')


def test_unknown_record_types_are_skipped_by_name() -> None:
    mapper = ClaudeCodeMapper()
    for kind in (
        "summary",
        "file-history-snapshot",
        "queue-operation",
        "attachment",
        "last-prompt",
        "system",
        "brand-new",
    ):
        assert mapper.feed({"type": kind, "whatever": [1]}) == []
    assert mapper.finish() == []


def test_bad_pieces_of_a_good_record_are_notes_and_the_rest_is_mapped() -> None:
    mapper = ClaudeCodeMapper()
    record = assistant(
        "not a block",  # type: ignore[arg-type]
        {"type": "tool_use", "name": "Bash"},
        {"type": "tool_use", "id": "x", "name": "Bash", "input": "ls"},
        text("still here"),
    )
    out = mapper.feed(record)
    notes = mapper.take_notes()
    assert len(notes) == 3 and mapper.take_notes() == []
    assert [m.text for m in of(Message, out)] == ["still here"]
    (only,) = of(ToolCall, out)
    assert only.args == {}


def test_meta_prompts_are_not_user_messages() -> None:
    out = feed(prompt("Caveat: the messages below …", isMeta=True), prompt("real"))
    assert [m.text for m in of(Message, out)] == ["real"]


def test_a_user_image_is_named_in_the_message() -> None:
    record = prompt("x")
    record["message"]["content"] = [
        text("look"),
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA=="}},
    ]
    assert [m.text for m in of(Message, feed(record))] == ["look\n[image: image/png]"]


def test_a_record_type_it_does_not_know_is_said_once_and_the_session_goes_on() -> None:
    mapper = ClaudeCodeMapper()
    unknown = {"type": "brand-new-record", "sessionId": SESSION, "uuid": "u9"}
    out = feed(prompt("hi"), unknown, unknown, assistant(text("hello")), mapper=mapper)
    assert [(m.role, m.text) for m in of(Message, out)] == [("user", "hi"), ("assistant", "hello")]
    assert mapper.take_notes() == ["a Claude Code record of type 'brand-new-record' is not shown"]


@pytest.mark.parametrize("kind", ["summary", "ai-title", "file-history-snapshot", "system"])
def test_a_type_skipped_by_name_makes_no_note(kind: str) -> None:
    mapper = ClaudeCodeMapper()
    feed(prompt("hi"), {"type": kind, "sessionId": SESSION}, mapper=mapper)
    assert mapper.take_notes() == []


def test_the_run_start_carries_the_folder_branch_and_the_agents_own_title() -> None:
    """cwd and gitBranch (on every record) and the best title record seen before the run
    starts ride on ``RunStarted``: a /rename (custom-title) outranks a generated title."""
    out = feed(
        {"type": "summary", "summary": "Old summary", "leafUuid": "u0"},
        {"type": "custom-title", "customTitle": "Fix the login bug", "sessionId": SESSION},
        {"type": "ai-title", "aiTitle": "Generated title"},
        prompt("hi", cwd="/home/ann/src/shop", gitBranch="feature/login"),
    )
    (started,) = of(RunStarted, out)
    assert (started.cwd, started.branch) == ("/home/ann/src/shop", "feature/login")
    assert started.title == "Fix the login bug"


def test_a_run_start_without_session_facts_says_none() -> None:
    (started,) = of(RunStarted, feed(prompt("hi")))
    assert msgspec.json.encode(started) == msgspec.json.encode(
        RunStarted(run_id=started.run_id, at=started.at)
    )


def test_a_rename_after_the_run_started_restates_the_run_with_its_title() -> None:
    """A /rename mid-session (custom-title) is not lost: a run-started of the same run says it,
    the call it left pending stays pending, and a later generated title does not outrank it."""
    out = feed(
        prompt("hi"),
        call("c1", "Bash", command="ls"),
        {"type": "custom-title", "customTitle": "Renamed"},
        {"type": "ai-title", "aiTitle": "Generated"},
    )
    started = of(RunStarted, out)
    assert [s.title for s in started] == [msgspec.UNSET, "Renamed"]
    assert started[0].run_id == started[1].run_id
    thread = Thread.from_observations(out[:-1])  # before finish: the call is still running
    (entry,) = thread.calls()
    assert thread.state(entry) == "pending"
