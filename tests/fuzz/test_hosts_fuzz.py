"""Fuzz the host mappers: pi events and files, MCP results and stored results."""

from __future__ import annotations

import contextlib
from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from fuzz import strategies as s
from fuzz.budget import fuzz
from fuzz.properties import check_observations
from toolview.contract import ToolResult
from toolview.hosts import mcp, pi


def _jsonl(records: list[Any]) -> bytes:
    return b"\n".join(msgspec.json.encode(record) for record in records)


@given(st.lists(s.pi_events, max_size=12), st.booleans())
@fuzz("pi PiEventMapper.feed")
def test_pi_mapper_maps_or_says_the_format_is_broken(events: list[Any], kinds: bool) -> None:
    mapper = pi.PiEventMapper(kinds=kinds)
    for event in events:
        try:
            check_observations(mapper.feed(event))
        except pi.PiFormatError as error:
            assert str(error)
    check_observations(mapper.close())


@given(st.lists(s.python_values, max_size=4))
@fuzz("pi PiEventMapper.feed")
def test_pi_mapper_rejects_what_is_not_an_event(events: list[Any]) -> None:
    mapper = pi.PiEventMapper()
    for event in events:
        with contextlib.suppress(pi.PiFormatError):
            check_observations(mapper.feed(event))


@given(
    st.lists(s.pi_events, max_size=10).map(_jsonl)
    | st.lists(s.pi_events, max_size=6).map(lambda e: _jsonl([{"type": "session", "id": "s"}, *e]))
    | st.binary(max_size=300)
)
@fuzz("pi load_observations")
def test_pi_loader_loads_or_names_the_line(data: bytes) -> None:
    try:
        check_observations(pi.load_observations(data))
    except pi.PiFormatError as error:
        assert str(error)


@given(s.python_values | s.json_values | s.RESULTS)
@fuzz("mcp map_result")
def test_mcp_map_result_always_gives_a_result(raw: Any) -> None:
    result = mcp.map_result(raw, tool_call_id="c1", tool_name="tool")
    assert isinstance(result, ToolResult)
    assert result.tool_call_id == "c1" and result.tool_name == "tool"


@given(s.json_values | s.RESULTS)
@fuzz("mcp map_result")
def test_mcp_map_result_of_json_is_valid_on_the_wire(raw: Any) -> None:
    check_observations([mcp.map_result(raw)])


@given(
    st.lists(s.RESULTS | s.json_values, max_size=4).map(msgspec.json.encode)
    | st.lists(s.RESULTS, max_size=4).map(_jsonl)
    | st.binary(max_size=300)
)
@fuzz("mcp load_observations")
def test_mcp_loader_loads_or_names_the_line(data: bytes) -> None:
    try:
        check_observations(mcp.load_observations(data))
    except mcp.StoredResultsError as error:
        assert str(error)
