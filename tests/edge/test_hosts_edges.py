"""Defined outcomes at the pi and MCP loaders (what ``toolview show --from`` reads)."""

from __future__ import annotations

import pytest

from edge import inputs
from toolview.contract import Message, ToolResult
from toolview.hosts import mcp, pi

SESSION = b'{"type":"session","id":"s1"}\n'


def pi_message(text_json: bytes) -> bytes:
    return (
        SESSION
        + b'{"type":"message","id":"m1","message":{"role":"user","content":'
        + text_json
        + b"}}\n"
    )


def mcp_result(text_json: bytes) -> bytes:
    return b'{"content":[{"type":"text","text":' + text_json + b"}]}"


def test_pi_invalid_utf8_names_the_line() -> None:
    with pytest.raises(pi.PiFormatError, match="line 2: not UTF-8"):
        pi.load_observations(pi_message(b'"\xff"'))


def test_pi_lone_surrogate_is_rejected_naming_the_line() -> None:
    """msgspec refuses a lone-surrogate escape, as decode_observation does: no unwritable text."""
    with pytest.raises(pi.PiFormatError, match="line 2"):
        pi.load_observations(pi_message(b'"\\ud800"'))


def test_pi_nul_10mb_bigint_and_duplicates() -> None:
    [_, message, _] = pi.load_observations(pi_message(b'"nul \\u0000"'))
    assert isinstance(message, Message) and message.text == "nul \x00"
    [_, message, _] = pi.load_observations(pi_message(b'"' + b"y" * inputs.TEN_MB + b'"'))
    assert isinstance(message, Message) and len(message.text) == inputs.TEN_MB
    data = (
        SESSION + b'{"type":"message","id":"m1","n":%d,"message":{"role":"user","content":"a",'
        b'"content":"b"}}\n' % inputs.BIG
    )
    [_, message, _] = pi.load_observations(data)
    assert isinstance(message, Message) and message.text == "b"


@pytest.mark.parametrize(
    "line",
    [b"[" * inputs.DEPTH + b"]" * inputs.DEPTH, b'{"n":1' + b"0" * 5000 + b"}"],
    ids=["deep", "hugeint"],
)
def test_pi_deep_or_huge_numbers_name_the_line(line: bytes) -> None:
    with pytest.raises(pi.PiFormatError, match="line 2"):
        pi.load_observations(SESSION + line)


def test_mcp_invalid_utf8_is_a_stored_results_error() -> None:
    with pytest.raises(mcp.StoredResultsError):
        mcp.load_observations(mcp_result(b'"\xff"'))


@pytest.mark.parametrize(
    "data",
    [
        mcp_result(b'"\\ud800"'),
        b"[" * inputs.DEPTH + b"]" * inputs.DEPTH,
        b'{"content":[]}\n{"n":1' + b"0" * 5000 + b"}",
    ],
    ids=["surrogate-escape", "deep", "hugeint"],
)
def test_mcp_refuses_what_is_not_json_naming_the_line(data: bytes) -> None:
    with pytest.raises(mcp.StoredResultsError, match="line"):
        mcp.load_observations(data)


def test_mcp_nul_10mb_bigint_and_duplicates() -> None:
    *_, result = mcp.load_observations(mcp_result(b'"nul \\u0000"'))
    assert isinstance(result, ToolResult) and "nul \x00" in result.text
    *_, result = mcp.load_observations(mcp_result(b'"' + b"y" * inputs.TEN_MB + b'"'))
    assert isinstance(result, ToolResult) and result.text.count("y") >= inputs.TEN_MB
    data = b'{"content":[{"type":"text","text":"a","text":"b"}],"n":%d}' % inputs.BIG
    *_, result = mcp.load_observations(data)
    assert isinstance(result, ToolResult) and result.text == "b"


def test_mcp_map_result_of_a_lone_surrogate_str_does_not_raise() -> None:
    """From a Python caller the text is kept; writing it is the surfaces' concern."""
    result = mcp.map_result({"content": [{"type": "text", "text": "a\ud800"}]})
    assert isinstance(result, ToolResult)
