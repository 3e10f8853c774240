"""``QwenMapper`` on records the real CLI writes (tests/hosts/qwen/real) and on the shapes a
run did not make: an unknown record type, an unknown system kind, a result with no call."""

from __future__ import annotations

import json
from pathlib import Path

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.hosts.qwen import QwenMapper, load_observations
from toolview.hosts.sessions import SessionNote

CHAT = next((Path(__file__).resolve().parent / "real").rglob("*.jsonl"))


def _line(**record: object) -> bytes:
    return json.dumps({"uuid": "u", "parentUuid": None, "sessionId": "s", **record}).encode()


def test_an_unknown_record_type_is_a_visible_note_and_the_rest_goes_on(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    lines = CHAT.read_bytes().splitlines()
    chat.write_bytes(b"\n".join([lines[0], _line(type="checkpoint"), *lines[1:]]) + b"\n")
    items = list(load_observations(chat))
    notes = [i.text for i in items if isinstance(i, SessionNote)]
    assert notes == ["chat.jsonl line 2: a Qwen Code record of type 'checkpoint' is not shown"]
    assert len([i for i in items if isinstance(i, ToolCall)]) == 5


def test_an_unknown_system_kind_is_said_once_bookkeeping_never() -> None:
    mapper = QwenMapper()
    for subtype in ("ui_telemetry", "attribution_snapshot", "rewind", "rewind"):
        assert mapper.feed_line(_line(type="system", subtype=subtype)) == []
    assert mapper.take_notes() == ["Qwen Code system records of kind 'rewind' are not shown"]


def test_a_result_for_a_call_never_made_is_a_note(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    answer = {"callId": "nope", "status": "success", "resultDisplay": "ok"}
    chat.write_bytes(_line(type="tool_result", toolCallResult=answer) + b"\n")
    (note,) = [i for i in load_observations(chat) if isinstance(i, SessionNote)]
    assert "a Qwen Code result for a call not seen (nope)" in note.text


def test_each_prompt_is_a_run_and_a_cancelled_call_is_an_error() -> None:
    mapper = QwenMapper()
    prompt = {"role": "user", "parts": [{"text": "go"}]}
    call = {
        "functionCall": {"id": "k", "name": "run_shell_command", "args": {"command": "sleep 9"}}
    }
    answer = {"callId": "k", "status": "cancelled", "resultDisplay": "Tool call cancelled by user."}
    out = mapper.feed_line(_line(type="user", message=prompt))
    out += mapper.feed_line(_line(type="assistant", message={"role": "model", "parts": [call]}))
    out += mapper.feed_line(_line(type="tool_result", toolCallResult=answer))
    out += mapper.feed_line(_line(type="user", message=prompt)) + mapper.finish()
    assert [type(o).__name__ for o in out] == [
        "RunStarted", "Message", "ToolCall", "ToolResult",
        "RunEnded", "RunStarted", "Message", "RunEnded",
    ]  # fmt: skip
    result = out[3]
    assert isinstance(result, ToolResult) and result.is_error and not result.descriptor
    assert result.text == "Tool call cancelled by user."
    assert [o.run_id for o in out if isinstance(o, RunStarted | RunEnded)] == ["s/1"] * 2 + [
        "s/2"
    ] * 2
    assert isinstance(out[1], Message) and out[1].text == "go"
