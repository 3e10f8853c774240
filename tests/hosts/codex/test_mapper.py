"""CodexMapper record by record: calls, kinds, runs, usage, marks, bad input."""

from __future__ import annotations

import json

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
from toolview.hosts.codex import CodexMapper
from toolview.hosts.sessions import SessionLineError

from .records import call, event, item, meta, output, record, user


def run(*records: dict[str, object], parent: str | None = None) -> list[Observation]:
    mapper = CodexMapper(parent_call_id=parent)
    out: list[Observation] = []
    for each in records:
        out.extend(mapper.feed(each))
    return out + mapper.finish()


def result(observations: list[Observation], call_id: str) -> ToolResult:
    (found,) = [o for o in observations if isinstance(o, ToolResult) and o.tool_call_id == call_id]
    return found


def props(observations: list[Observation], call_id: str) -> dict[str, object]:
    descriptor = result(observations, call_id).descriptor
    assert descriptor is not msgspec.UNSET
    return descriptor.props


def test_legacy_shell_call_and_json_output() -> None:
    out = run(
        meta(),
        call("c1", "shell", {"command": ["bash", "-lc", "ls -a"]}),
        output(
            "c1",
            json.dumps(
                {"output": "a\nb\n", "metadata": {"exit_code": 0, "duration_seconds": 0.25}}
            ),
        ),
    )
    assert props(out, "c1") == {
        "command": "ls -a",
        "exitCode": 0,
        "stdout": "a\nb\n",
        "stderr": "",
        "durationMs": 250,
    }
    assert result(out, "c1").text == "a\nb\n"


def test_exec_command_end_keeps_the_streams_apart_and_the_duration() -> None:
    end = {
        "call_id": "c1",
        "stdout": "out\n",
        "stderr": "bad\n",
        "aggregated_output": "out\nbad\n",
        "exit_code": 2,
        "duration": {"secs": 1, "nanos": 500_000_000},
    }
    out = run(
        call("c1", "shell", {"command": ["git", "status"]}),
        event("exec_command_end", **end),
        output("c1", "Exit code: 2\nWall time: 1.5 seconds\nOutput:\nout\nbad\n"),
    )
    assert props(out, "c1") == {
        "command": "git status",
        "exitCode": 2,
        "stdout": "out\n",
        "stderr": "bad\n",
        "durationMs": 1500,
    }
    assert result(out, "c1").is_error


def test_unified_exec_still_running_names_its_session() -> None:
    text = (
        "Chunk ID: ab\nWall time: 10.0020 seconds\nProcess running with session ID 4242\n"
        "Original token count: 1\nOutput:\nstarting\n"
    )
    out = run(call("c1", "exec_command", {"cmd": "npm run dev"}), output("c1", text))
    assert props(out, "c1") == {
        "command": "npm run dev",
        "exitCode": None,
        "stdout": "starting\n",
        "stderr": "",
        "durationMs": 10002,
        "backgroundTaskId": "4242",
    }
    assert not result(out, "c1").is_error


def test_model_copy_cut_by_tokens_is_a_truncation() -> None:
    body = (
        "Warning: truncated output (original token count: 900)\nTotal output lines: 500\n\n"
        "1\n2…880 tokens truncated…499\n500\n"
    )
    out = run(
        call("c1", "exec_command", {"cmd": "seq 500"}),
        output(
            "c1",
            f"Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n{body}",
        ),
    )
    descriptor = result(out, "c1").descriptor
    assert descriptor and descriptor.truncated and descriptor.truncated.total == 500
    assert descriptor.truncated.shown == 3 and result(out, "c1").text.startswith("1\n2…")


def test_older_patch_events_make_a_multi_file_diff() -> None:
    changes = {
        "/w/new.txt": {"add": {"content": "one\ntwo\n"}},
        "/w/old.txt": {"delete": {"content": "gone\n"}},
        "/w/a.py": {"update": {"unified_diff": "@@ -1 +1 @@\n-x\n+y\n", "move_path": "/w/b.py"}},
    }
    out = run(
        meta(),
        item(
            "custom_tool_call",
            call_id="p1",
            name="apply_patch",
            input="*** Begin Patch\n*** End Patch\n",
        ),
        event("patch_apply_begin", call_id="p1", auto_approved=True, changes=changes),
        event("patch_apply_end", call_id="p1", stdout="Success.\n", stderr="", success=True),
        output(
            "p1",
            json.dumps({"output": "Success.\n", "metadata": {"exit_code": 0}}),
            "custom_tool_call_output",
        ),
    )
    assert props(out, "p1")["diff"] == (
        "--- a/a.py\n+++ b/b.py\n@@ -1 +1 @@\n-x\n+y\n"
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
        "--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n"
    )
    assert result(out, "p1").text == "Success.\n" and not result(out, "p1").is_error


def test_a_patch_without_changes_is_read_from_its_text_and_a_failure_is_an_error() -> None:
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@ def f\n-old\n+new\n*** End Patch"
    out = run(
        item("custom_tool_call", call_id="p1", name="apply_patch", input=patch),
        output(
            "p1",
            "Exit code: 1\nWall time: 0 seconds\nOutput:\nverification failed\n",
            "custom_tool_call_output",
        ),
    )
    assert props(out, "p1")["diff"] == "--- a/a.txt\n+++ b/a.txt\n@@ def f\n-old\n+new\n"
    assert result(out, "p1").is_error and result(out, "p1").text == "verification failed\n"


def test_update_plan_is_a_todo_unless_a_status_is_unknown() -> None:
    plan = [{"step": "a", "status": "completed"}, {"step": "b", "status": "in_progress"}]
    out = run(
        call("u1", "update_plan", {"plan": plan}),
        output("u1", "Plan updated"),
        call("u2", "update_plan", {"plan": [{"step": "c", "status": "blocked"}]}),
        output("u2", "Plan updated"),
    )
    assert props(out, "u1") == {
        "items": [
            {"content": "a", "status": "completed"},
            {"content": "b", "status": "in_progress"},
        ]
    }
    assert (
        result(out, "u2").descriptor is msgspec.UNSET and result(out, "u2").text == "Plan updated"
    )


def test_other_calls_are_json_or_text() -> None:
    out = run(
        call("j", "list_agents", {}),
        output("j", '[{"a": 1}]'),
        call("t", "view_image", {"path": "x.png"}),
        output("t", "not an image"),
        call("n", "spawn_agent", {}, namespace="collaboration"),
        output("n", "{}"),
    )
    assert props(out, "j") == {"value": [{"a": 1}]}
    assert result(out, "t").descriptor is msgspec.UNSET
    assert result(out, "n").tool_name == "collaboration.spawn_agent"


def test_a_call_left_without_result_is_aborted_when_the_file_ends() -> None:
    out = run(
        meta(), event("task_started", turn_id="t"), call("c1", "shell", {"command": ["sleep", "9"]})
    )
    ended = out[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "aborted"
    thread = Thread.from_observations(out)
    (entry,) = thread.calls()
    assert thread.state(entry) == "aborted"


def test_an_end_record_without_output_still_answers_at_the_end() -> None:
    item_completed = {
        "type": "CommandExecution",
        "id": "c1",
        "command": ["ls"],
        "aggregated_output": "x\n",
        "exit_code": 0,
        "status": "completed",
    }
    out = run(
        call("c1", "exec_command", {"cmd": "ls"}), event("item_completed", item=item_completed)
    )
    assert result(out, "c1").text == "x\n"


def test_turns_are_runs() -> None:
    out = run(
        meta("s"),
        event("task_started"),
        user("hi"),
        event("task_complete"),
        event("task_started"),
        event("turn_aborted", reason="interrupted"),
        event("task_started"),
        event("error", message="stream disconnected"),
        event("task_complete"),
    )
    runs = [
        (o.run_id, getattr(o, "outcome", None), getattr(o, "reason", None))
        for o in out
        if isinstance(o, RunStarted | RunEnded)
    ]
    assert runs == [
        ("s/1", None, None),
        ("s/1", "completed", msgspec.UNSET),
        ("s/2", None, None),
        ("s/2", "aborted", "interrupted"),
        ("s/3", None, None),
        ("s/3", "error", "stream disconnected"),
    ]


def test_without_turn_events_each_prompt_opens_a_run() -> None:
    env = "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"
    out = run(meta("s"), user(env), user("first"), user("second"))
    assert [type(o).__name__ for o in out] == [
        "RunStarted",
        "Message",
        "RunEnded",
        "RunStarted",
        "Message",
        "RunEnded",
    ]
    assert [o.text for o in out if isinstance(o, Message)] == ["first", "second"]


def test_reasoning_and_assistant_text_are_messages() -> None:
    out = run(
        item(
            "reasoning",
            summary=[{"type": "summary_text", "text": "think"}],
            encrypted_content="gAAA",
        ),
        item("reasoning", summary=[], encrypted_content="gAAA"),
        item("message", role="assistant", content=[{"type": "output_text", "text": "done"}]),
        item("message", role="developer", content=[{"type": "input_text", "text": "rules"}]),
    )
    assert [(o.role, o.text) for o in out if isinstance(o, Message)] == [
        ("thinking", "think"),
        ("assistant", "done"),
    ]


def test_usage_per_response_without_repeats() -> None:
    last = {
        "input_tokens": 1000,
        "cached_input_tokens": 600,
        "output_tokens": 50,
        "total_tokens": 1050,
    }
    info = {"total_token_usage": last, "last_token_usage": last}
    out = run(
        record("turn_context", {"model": "gpt-5-codex", "cwd": "/w"}),
        event("token_count", info=None),
        event("token_count", info=info),
        event("token_count", info=info),
    )
    assert [o for o in out if isinstance(o, Usage)] == [
        Usage(
            model="gpt-5-codex",
            input_tokens=400,
            output_tokens=50,
            cache_read_tokens=600,
            at="2026-12-01T10:00:00.000Z",
        )
    ]


def test_every_observation_is_stamped_with_its_time_and_mark() -> None:
    out = run(
        record(
            "response_item",
            {"type": "message", "role": "user", "content": "hi"},
            at="2026-12-01T11:00:00+01:00",
        ),
        record(
            "response_item",
            {"type": "message", "role": "assistant", "content": "yo"},
            at="2026-12-01T10:00:00",
        ),
        parent="call_spawn",
    )
    assert all(o.parent_call_id == "call_spawn" for o in out)
    (asked, answered) = [o for o in out if isinstance(o, Message)]
    assert asked.at == "2026-12-01T10:00:00.000Z" and answered.at is msgspec.UNSET


def test_skipped_by_name_and_unknown_named_once() -> None:
    mapper = CodexMapper()
    for kind in (
        "turn_context",
        "world_state",
        "token_usage_record",
        "compacted",
        "mystery",
        "mystery",
    ):
        assert mapper.feed(record(kind, {})) == []
    assert mapper.take_notes() == ["a Codex record type 'mystery' is not shown"]
    assert mapper.take_notes() == []


@pytest.mark.parametrize("line", [b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 100_000])
def test_a_line_that_is_no_json_object_raises_a_session_line_error(line: bytes) -> None:
    with pytest.raises(SessionLineError):
        CodexMapper().feed_line(line)


def test_wrong_shapes_read_as_what_they_hold() -> None:
    weird = [
        record("response_item", []),
        record(
            "event_msg",
            {
                "type": "token_count",
                "info": {"last_token_usage": {"input_tokens": -5, "output_tokens": "9"}},
            },
        ),
        item("function_call", call_id=7, name="x"),
        item("function_call", call_id="c", name="shell", arguments="[1]"),
        event("exec_command_end", call_id="c", duration="1s", exit_code="0"),
        output("c", None),  # type: ignore[arg-type]
        event("item_completed", item="nope"),
        item("local_shell_call", call_id="l", action="ls"),
    ]
    out = run(*weird)
    assert result(out, "c").text == ""
    assert any(isinstance(o, ToolCall) and o.tool_call_id == "l" for o in out)


def test_injected_context_is_not_the_user_speaking() -> None:
    injected = [
        "<permissions instructions>\nsandbox: none\n</permissions instructions>",
        "# AGENTS.md instructions for /w\n\nbe nice",
        "<user_instructions>x</user_instructions>\n",
    ]
    spoken = ["<b>bold</b> please", "fix <div> in page.html", "<" + "a " * 100_000]
    out = run(*(user(text) for text in injected + spoken))
    assert [o.text for o in out if isinstance(o, Message)] == spoken


def test_an_end_record_may_give_its_duration_in_milliseconds() -> None:
    end = {"call_id": "c1", "aggregated_output": "ok\n", "exit_code": 0, "duration_ms": 457}
    out = run(
        call("c1", "exec_command", {"cmd": "ls"}),
        event("exec_command_end", **end),
        output("c1", "ok\n"),
    )
    assert props(out, "c1")["durationMs"] == 457


def test_a_turn_started_after_its_prompt_keeps_the_prompts_run() -> None:
    out = run(
        meta("s"), user("go"), event("task_started"), call("c", "shell", {}), event("task_complete")
    )
    runs = [(type(o).__name__, o.run_id) for o in out if isinstance(o, RunStarted | RunEnded)]
    assert runs == [("RunStarted", "s/1"), ("RunEnded", "s/1")]


def test_an_end_record_without_output_or_command_borrows_them() -> None:
    end = {"call_id": "c1", "command": ["/bin/zsh", "-lc", "ls"], "exit_code": 0}
    out = run(
        call("c1", "exec_command", {}),
        event("exec_command_end", **end),
        output("c1", "a\nb\n"),
    )
    assert props(out, "c1") == {"command": "ls", "exitCode": 0, "stdout": "a\nb\n", "stderr": ""}
    assert result(out, "c1").text == "a\nb\n"


def test_a_command_aborted_by_the_user_is_interrupted() -> None:
    out = run(
        call("c1", "exec_command", {"cmd": "sleep 60"}),
        output("c1", "Wall time: 0.1 seconds\naborted by user"),
    )
    assert props(out, "c1") == {
        "command": "sleep 60", "exitCode": None, "stdout": "aborted by user", "stderr": "",
        "durationMs": 100, "interrupted": True,
    }  # fmt: skip
    assert result(out, "c1").is_error


def test_a_mid_2025_rollout_without_the_wrapper_maps() -> None:
    header = {"id": "old-1", "timestamp": "2025-06-01T10:00:00.000Z", "instructions": None}
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "ls"}]},
        {"record_type": "state"},
        {"type": "function_call", "name": "shell", "call_id": "c1",
         "arguments": json.dumps({"command": ["ls"]})},
        {"type": "function_call_output", "call_id": "c1",
         "output": json.dumps({"output": "a\n", "metadata": {"exit_code": 0}})},
    ]  # fmt: skip
    mapper = CodexMapper()
    out = [o for r in [header, *items] for o in mapper.feed(r)] + mapper.finish()
    assert mapper.take_notes() == [] and mapper.session_id == "old-1"
    assert [type(o).__name__ for o in out] == [
        "RunStarted", "Message", "ToolCall", "ToolResult", "RunEnded"
    ]  # fmt: skip
    assert props(out, "c1")["exitCode"] == 0


def test_a_record_without_a_type_is_named_once() -> None:
    mapper = CodexMapper()
    assert mapper.feed({"x": 1}) == [] and mapper.feed({"y": 2}) == []
    assert mapper.take_notes() == ["a Codex record without a type is not shown"]
