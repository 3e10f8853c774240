"""Codex's PermissionRequest hook, sans I/O: its thread, the call's id from the rollout, hostile
rollout lines (the tail's cut line, a forged arguments string) never crash nor mislead."""

from __future__ import annotations

import json

from toolview.hosts.codex.permission import call_id_in, thread_of, waiting_of
from toolview.hosts.permission_hook import PermissionRequest, parse_request

SESSION = "01a25346-3e06-79f2-b278-2c055a83f9ad"
ASK = {
    "session_id": SESSION,
    "turn_id": "01a25346-3ea3-7570-8253-f3c1322228bb",
    "transcript_path": None,
    "cwd": "/w",
    "hook_event_name": "PermissionRequest",
    "model": "gpt-5.5",
    "permission_mode": "default",
    "tool_name": "Bash",
    "tool_input": {"command": "touch ran.txt", "description": "write the file"},
}


def _request() -> PermissionRequest:
    return parse_request(json.dumps(ASK).encode())  # Codex 0.171's real stdin, as captured


def _call(call_id: str, args: object) -> bytes:
    arguments = args if isinstance(args, str) else json.dumps(args)
    payload = {"type": "function_call", "name": "exec_command", "arguments": arguments}
    return json.dumps(
        {"type": "response_item", "payload": {**payload, "call_id": call_id}}
    ).encode()


def test_the_thread_is_the_one_serve_watch_names_for_the_rollout() -> None:
    assert thread_of(_request()) == f"codex-{SESSION}"


def test_the_call_is_the_newest_function_call_running_the_asked_command() -> None:
    tail = b"\n".join(
        [
            b'{"type":"response_item","payload":{"type":"function_call","call_id":"cut',  # cut
            _call("call_old", {"cmd": "touch ran.txt"}),
            _call("call_other", {"cmd": "rm -rf /"}),
            _call("call_new", {"cmd": "touch ran.txt", "yield_time_ms": 20000}),
            _call("call_forged", "not json {"),
            _call("call_list", {"command": ["bash", "-lc", "echo other"]}),
        ]
    )
    assert call_id_in(tail, _request()) == "call_new"


def test_the_classic_shell_tools_argv_matches_by_its_script() -> None:
    tail = _call("call_shell", {"command": ["bash", "-lc", "touch ran.txt"]})
    assert call_id_in(tail, _request()) == "call_shell"


def test_no_match_gives_a_stable_id_made_from_the_request() -> None:
    first = call_id_in(_call("call_x", {"cmd": "ls"}), _request())
    assert first.startswith("hook-") and first == call_id_in(b"", _request())


def test_the_question_says_codex_and_the_models_reason() -> None:
    waiting = waiting_of(_request(), "call_new")
    assert (waiting.tool_call_id, waiting.args) == ("call_new", ASK["tool_input"])
    assert waiting.question == "Codex asks to run Bash: write the file"
