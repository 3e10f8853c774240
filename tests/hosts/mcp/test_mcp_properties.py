"""Property: the raw mapper never raises, whatever JSON it is given."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import ToolResult, decode_observation, encode_observation, validate_props
from toolview.hosts.mcp import (
    ProgressLog,
    StoredResultsError,
    load_observations,
    map_result,
    sniff,
)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = st.sampled_from(
    [
        "type",
        "text",
        "data",
        "mimeType",
        "uri",
        "name",
        "resource",
        "blob",
        "annotations",
        "audience",
        "_meta",
        "ui",
        "resourceUri",
        "title",
        "size",
        "task",
        "taskId",
    ]
)
BLOCK_TYPES = st.sampled_from(["text", "image", "audio", "resource_link", "resource", "zzz"])
BLOCKS = st.dictionaries(KEYS, JSON, max_size=5).flatmap(
    lambda block: BLOCK_TYPES.map(lambda kind: {**block, "type": kind})
)
RESULTS = st.fixed_dictionaries(
    {},
    optional={
        "content": st.lists(BLOCKS | JSON, max_size=4) | JSON,
        "structuredContent": JSON,
        "isError": JSON,
        "resultType": st.sampled_from(["complete", "input_required", "task"]) | JSON,
        "_meta": st.dictionaries(KEYS, JSON, max_size=3) | JSON,
        "task": JSON,
    },
)


def check(result: ToolResult) -> None:
    assert decode_observation(encode_observation(result)) == result
    if isinstance(result.descriptor, msgspec.Struct) and result.descriptor.kind == "blocks":
        validate_props("blocks", result.descriptor.props)


@given(RESULTS, JSON)
def test_the_mapper_never_raises_on_result_shaped_json(
    raw: dict[str, Any], tool_meta: object
) -> None:
    check(map_result(raw, tool_call_id="c", tool_name="t", tool_meta=tool_meta))


@given(JSON)
def test_the_mapper_never_raises_on_any_json(raw: object) -> None:
    check(map_result(raw, tool_call_id="c", tool_name="t"))


ODD_NUMBERS = st.floats() | st.integers(min_value=10**300, max_value=10**400)


@given(st.lists(st.tuples(JSON | ODD_NUMBERS, JSON | ODD_NUMBERS, JSON), max_size=6))
def test_progress_never_raises_and_accumulates(
    updates: list[tuple[object, object, object]],
) -> None:
    log = ProgressLog("c", "t", window=3)
    for number, (progress, total, message) in enumerate(updates, start=1):
        result = log.update(progress, total, message)
        check(result)
        assert result.text.count("progress") >= min(number, 3)


@given(st.lists(RESULTS | JSON, max_size=4))
def test_the_loader_never_raises_on_a_json_array(records: list[object]) -> None:
    for observation in load_observations(msgspec.json.encode(records)):
        assert decode_observation(encode_observation(observation)) == observation


@given(st.binary(max_size=200) | JSON.map(msgspec.json.encode))
def test_sniff_and_the_loader_never_fail_unexpectedly(data: bytes) -> None:
    assert sniff(data) in (True, False)
    try:
        observations = load_observations(data)
    except StoredResultsError as error:
        assert "not JSON" in str(error)  # the one error it may raise: it names the line
    else:
        for observation in observations:
            assert decode_observation(encode_observation(observation)) == observation
