"""The PermissionRequest hook's mapping, sans I/O: the request read, the call found, the answer."""

from __future__ import annotations

import json

import msgspec
import pytest

from toolview.hosts.claude_code.permission import (
    INPUT_LIMIT,
    BadRequest,
    call_id_in,
    hook_output,
    parse_request,
    thread_of,
    waiting_of,
)

SESSION = "6f1c2a9e-0b7d-4c1e-9a51-2f3e4d5c6b7a"
ASK = {
    "session_id": SESSION,
    "transcript_path": "/x/t.jsonl",
    "cwd": "/x",
    "permission_mode": "default",
    "hook_event_name": "PermissionRequest",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf build", "description": "clean"},
    "permission_suggestions": [],
}


def _raw(**changes: object) -> bytes:
    return json.dumps({**ASK, **changes}).encode()


def _use(call: str, name: str, args: dict[str, object]) -> bytes:
    block = {"type": "tool_use", "id": call, "name": name, "input": args}
    return json.dumps({"type": "assistant", "message": {"content": [block]}}).encode()


def test_claude_codes_request_is_read_and_named_as_serve_watch_names_the_thread() -> None:
    request = parse_request(_raw())
    assert (request.tool_name, request.tool_input["command"]) == ("Bash", "rm -rf build")
    assert thread_of(request) == f"claude-{SESSION}"
    assert thread_of(parse_request(_raw(session_id="a/b c" + "x" * 80))).startswith("claude-a-b-c")
    assert len(thread_of(parse_request(_raw(session_id="x" * 200)))) <= 64


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"not json", "not a PermissionRequest"),
        (b"[1, 2]", "not a PermissionRequest"),
        (_raw(tool_input="rm -rf /"), "not a PermissionRequest"),
        (_raw(hook_event_name="PreToolUse"), "not PermissionRequest"),
        (_raw(session_id=" "), "no session"),
        (b" " * (INPUT_LIMIT + 1), "over"),
    ],
)
def test_hostile_input_is_refused_with_the_reason(raw: bytes, why: str) -> None:
    with pytest.raises(BadRequest, match=why):
        parse_request(raw)


def test_the_call_is_the_transcripts_newest_tool_use_of_that_tool_and_input() -> None:
    request = parse_request(_raw())
    tail = b"\n".join(
        [
            b'half a line"}',
            _use("toolu_old", "Bash", dict(request.tool_input)),
            _use("toolu_other", "Bash", {"command": "ls"}),
            _use("toolu_new", "Bash", dict(request.tool_input)),
            _use("toolu_read", "Read", {"file_path": "/x"}),
        ]
    )
    assert call_id_in(tail, request) == "toolu_new"
    assert call_id_in(tail, parse_request(_raw(tool_use_id="toolu_given"))) == "toolu_given"


def test_without_a_transcript_the_call_id_is_stable_per_ask() -> None:
    made = call_id_in(b"", parse_request(_raw()))
    assert made.startswith("hook-") and made == call_id_in(b"", parse_request(_raw()))
    assert made != call_id_in(b"", parse_request(_raw(tool_input={"command": "ls"})))


def test_the_waiting_carries_the_arguments_that_will_run() -> None:
    waiting = waiting_of(parse_request(_raw()), "toolu_1")
    assert (waiting.tool_call_id, waiting.tool_name, waiting.args) == (
        "toolu_1",
        "Bash",
        ASK["tool_input"],
    )


def test_allow_and_deny_are_claude_codes_decision_json_and_an_answer_decides_nothing() -> None:
    allow = msgspec.json.decode(hook_output("allow", None) or b"")
    assert allow == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    deny = msgspec.json.decode(hook_output("deny", "not on a Friday") or b"")
    assert deny["hookSpecificOutput"]["decision"] == {
        "behavior": "deny",
        "message": "not on a Friday",
    }
    assert hook_output("answer", "42") is None
