"""Detecting and loading pi files; bad input is a clear error, never a crash."""

from __future__ import annotations

import json

import pytest

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.hosts.pi import PiEventMapper, PiFormatError, load_observations, sniff
from toolview.hosts.pi.session import current_branch


def lines(*records: object) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def test_sniff() -> None:
    assert sniff(lines({"type": "session", "version": 3, "id": "s"}))
    assert sniff(lines({"type": "agent_start"}, {"type": "turn_start"}))
    assert not sniff(lines({"kind": "tool-call", "toolCallId": "a", "toolName": "b", "args": {}}))
    assert not sniff(b"not json at all")
    assert not sniff(b"")


def test_a_line_that_is_not_json_is_named() -> None:
    data = lines({"type": "session", "id": "s"}) + b"{oops\n"
    with pytest.raises(PiFormatError, match="line 2: not JSON"):
        load_observations(data)


def test_an_event_without_a_call_id_is_a_format_error() -> None:
    data = lines({"type": "agent_start"}, {"type": "tool_execution_start", "toolName": "bash"})
    with pytest.raises(PiFormatError, match=r"record 2: .*toolCallId"):
        load_observations(data)


def test_a_non_boolean_is_error_is_rejected_not_coerced() -> None:
    mapper = PiEventMapper()
    mapper.feed({"type": "tool_execution_start", "toolCallId": "a", "toolName": "t", "args": {}})
    with pytest.raises(PiFormatError, match="isError"):
        mapper.feed(
            {
                "type": "tool_execution_end",
                "toolCallId": "a",
                "toolName": "t",
                "result": {},
                "isError": "no",
            }
        )


def test_a_capture_cut_mid_run_ends_the_run_as_error() -> None:
    data = lines(
        {"type": "session", "id": "s1"},
        {"type": "agent_start"},
        {
            "type": "tool_execution_start",
            "toolCallId": "a",
            "toolName": "bash",
            "args": {"command": "x"},
        },
    )
    observations = load_observations(data, kinds=False)
    assert observations == [
        RunStarted(run_id="s1/1"),
        ToolCall(tool_call_id="a", tool_name="bash", args={"command": "x"}),
        RunEnded(run_id="s1/1", outcome="error", reason="the capture ends before the run did"),
    ]


def entry(id_: str, parent: str | None, message: dict[str, object]) -> dict[str, object]:
    return {"type": "message", "id": id_, "parentId": parent, "message": message}


def test_session_follows_the_current_branch() -> None:
    user = {"role": "user", "content": "hi"}
    first = {
        "role": "assistant",
        "content": [{"type": "text", "text": "abandoned"}],
        "stopReason": "stop",
    }
    second = {
        "role": "assistant",
        "content": [{"type": "text", "text": "kept"}],
        "stopReason": "aborted",
    }
    entries = [entry("u", None, user), entry("a1", "u", first), entry("a2", "u", second)]
    assert [e["id"] for e in current_branch(entries)] == ["u", "a2"]
    data = lines({"type": "session", "version": 3, "id": "s"}, *entries)
    observations = load_observations(data)
    assert Message(role="assistant", text="abandoned") not in observations
    assert observations[-2:] == [
        Message(role="assistant", text="kept"),
        RunEnded(run_id="s/1", outcome="aborted"),
    ]


def test_stored_tool_result_with_an_image_names_it() -> None:
    call = {"type": "toolCall", "id": "r", "name": "read", "arguments": {"path": "p.png"}}
    tool = {
        "role": "toolResult",
        "toolCallId": "r",
        "toolName": "read",
        "content": [
            {"type": "text", "text": "Read image file"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
        ],
        "isError": False,
    }
    data = lines(
        {"type": "session", "id": "s"},
        entry("u", None, {"role": "user", "content": "look"}),
        entry("a", "u", {"role": "assistant", "content": [call], "stopReason": "toolUse"}),
        entry("t", "a", tool),
    )
    result = next(o for o in load_observations(data) if isinstance(o, ToolResult))
    assert result.text == "Read image file\n[image: image/png]"
    assert "AAAA" not in result.text
