"""Stored MCP results for ``toolview show --from mcp``."""

from __future__ import annotations

import json

import pytest

from toolview.contract import ToolCall, ToolResult
from toolview.hosts.mcp import StoredResultsError, load_observations, sniff

RAW = {"content": [{"type": "text", "text": "hello"}]}
CALL = {"tool": "greet", "arguments": {"who": "x"}, "id": "call-7", "result": RAW}


def test_a_bare_result_gets_a_call_and_a_result() -> None:
    call, result = load_observations(json.dumps(RAW).encode())
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert call.tool_call_id == result.tool_call_id == "mcp-1"
    assert result.text == "hello"


def test_a_call_record_keeps_its_tool_arguments_and_id() -> None:
    call, result = load_observations(json.dumps([CALL]).encode())
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert (call.tool_name, call.args, call.tool_call_id) == ("greet", {"who": "x"}, "call-7")
    assert (result.tool_name, result.tool_call_id) == ("greet", "call-7")


def test_json_lines_with_progress_give_partials_before_the_final_result() -> None:
    record = {**CALL, "progress": [{"progress": 1, "total": 2}, {"progress": 2, "total": 2}]}
    data = (json.dumps(RAW) + "\n\n" + json.dumps(record) + "\n").encode()
    observations = load_observations(data)
    assert [type(o).__name__ for o in observations] == [
        "ToolCall",
        "ToolResult",
        "ToolCall",
        "ToolResult",
        "ToolResult",
        "ToolResult",
    ]
    partial = observations[4]
    assert isinstance(partial, ToolResult)
    assert (partial.complete, partial.text) == (False, "progress 1/2\nprogress 2/2")


def test_a_json_rpc_error_answer_is_an_error_result() -> None:
    record = {"tool": "t", "error": {"code": -32602, "message": "Unknown tool: t"}}
    _, result = load_observations(json.dumps(record).encode())
    assert isinstance(result, ToolResult)
    assert result.is_error and result.text == "MCP error -32602: Unknown tool: t"


def test_a_json_rpc_response_is_read_through() -> None:
    _, result = load_observations(json.dumps({"jsonrpc": "2.0", "id": 4, "result": RAW}).encode())
    assert isinstance(result, ToolResult) and result.text == "hello"


def test_arguments_that_are_not_an_object_are_noted_not_coerced() -> None:
    call, result = load_observations(json.dumps({**CALL, "arguments": [1]}).encode())
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert call.args == {}
    assert "the stored `arguments` is not a JSON object" in result.text


def test_a_record_of_the_wrong_shape_is_a_visible_error_result() -> None:
    _, result = load_observations(b"[42]")
    assert isinstance(result, ToolResult) and result.is_error


def test_a_line_that_is_not_json_is_an_error_naming_the_line() -> None:
    with pytest.raises(StoredResultsError, match="line 2: not JSON"):
        load_observations(json.dumps(RAW).encode() + b"\n{oops\n")


@pytest.mark.parametrize(
    "data",
    [
        json.dumps(RAW).encode(),
        json.dumps([CALL]).encode(),
        (json.dumps(CALL) + "\n" + json.dumps(RAW)).encode(),
        json.dumps(CALL, indent=2).encode(),
        json.dumps({"jsonrpc": "2.0", "id": 1, "result": RAW}).encode(),
    ],
)
def test_sniff_recognises_stored_results(data: bytes) -> None:
    assert sniff(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"kind":"tool-call","toolCallId":"a","toolName":"b","args":{}}\n',
        b'{"type":"tool_execution_start","toolCallId":"a"}\n',
        b'{"type":"session","id":"x"}\n',
        b"plain text",
        b"",
        b"[]",
        b"{not json",
    ],
)
def test_sniff_rejects_other_inputs(data: bytes) -> None:
    assert not sniff(data)
