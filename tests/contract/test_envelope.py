"""parse_envelope: untrusted input, bounded cost, None for anything off."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview import Envelope, parse_envelope
from toolview.contract.envelope import ENVELOPE_MAX_BYTES, ENVELOPE_MAX_DEPTH

BASE: dict[str, Any] = {"schemaVersion": "1.0", "tool": "search", "status": "success"}


def test_known_structured_result_from_str_bytes_and_dict() -> None:
    document = {**BASE, "data": {"hits": [1, 2]}, "summary": "2 hits"}
    for raw in (json.dumps(document), json.dumps(document).encode(), document):
        envelope = parse_envelope(raw)
        assert envelope == Envelope(
            "1.0", "search", "success", data={"hits": [1, 2]}, summary="2 hits"
        )


def test_error_envelope_keeps_its_code() -> None:
    envelope = parse_envelope({**BASE, "status": "error", "errorCode": "E_NOPE", "summary": "no"})
    assert envelope is not None
    assert (envelope.status, envelope.error_code, envelope.summary) == ("error", "E_NOPE", "no")


def test_unknown_status_is_kept_verbatim_for_the_display_table() -> None:
    envelope = parse_envelope({**BASE, "status": "exploded"})
    assert envelope is not None
    assert envelope.status == "exploded"


def test_future_minor_version_is_accepted() -> None:
    envelope = parse_envelope({**BASE, "schemaVersion": "1.97"})
    assert envelope is not None
    assert envelope.schema_version == "1.97"


@pytest.mark.parametrize("version", ["2.0", "0.9", "1", "1.0.0", "v1.0", "", 1.0, 1, None])
def test_unknown_major_or_bad_version_is_rejected(version: object) -> None:
    assert parse_envelope({**BASE, "schemaVersion": version}) is None


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        "plain text output\nline 2",
        "",
        b"\xff\xfe",
        "[1, 2, 3]",
        '"a string"',
        42,
        None,
        ["schemaVersion", "1.0"],
        {**BASE, "tool": ""},
        {**BASE, "tool": 3},
        {**BASE, "status": None},
        {**BASE, "summary": 5},
        {**BASE, "errorCode": 404},
        {"schemaVersion": "1.0", "status": "success"},
        {"schemaVersion": "1.0", "tool": "t"},
        object(),
    ],
    ids=repr,
)
def test_anything_else_is_none(raw: object) -> None:
    assert parse_envelope(raw) is None


def test_unknown_fields_are_kept_only_redacted_in_diagnostics() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    envelope = parse_envelope(
        {**BASE, "debug": {"password": "hunter2", "note": f"used {token}"}, "trace": "x"}
    )
    assert envelope is not None
    dumped = json.dumps(envelope.diagnostics)
    assert "hunter2" not in dumped
    assert token not in dumped
    assert "[redacted" in dumped
    assert isinstance(envelope.diagnostics, dict)
    assert envelope.diagnostics["trace"] == "x"


def test_known_envelope_has_no_diagnostics() -> None:
    envelope = parse_envelope(BASE)
    assert envelope is not None
    assert "diagnostics" not in json.loads(json.dumps(_wire(envelope)))


def _wire(envelope: Envelope) -> dict[str, Any]:
    import msgspec

    result: dict[str, Any] = msgspec.to_builtins(envelope)
    return result


def test_oversized_input_is_rejected_cheaply() -> None:
    big = json.dumps({**BASE, "data": "x" * (ENVELOPE_MAX_BYTES + 10)})
    assert parse_envelope(big) is None
    assert parse_envelope(big.encode()) is None


def test_deep_nesting_is_rejected_without_recursion_errors() -> None:
    deep_text = (
        '{"schemaVersion":"1.0","tool":"t","status":"ok","data":'
        + "[" * 100_000
        + "]" * 100_000
        + "}"
    )
    assert parse_envelope(deep_text) is None
    data: Any = []
    for _ in range(100_000):
        data = [data]
    assert parse_envelope({**BASE, "data": data}) is None


def test_nesting_just_within_the_limit_is_accepted() -> None:
    data: Any = 1
    for _ in range(ENVELOPE_MAX_DEPTH - 2):
        data = [data]
    assert parse_envelope({**BASE, "data": data}) is not None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=25,
)


@given(json_values)
def test_parser_never_raises_on_any_json_value(raw: object) -> None:
    result = parse_envelope(raw)
    assert result is None or isinstance(result, Envelope)


@given(st.binary(max_size=300) | st.text(max_size=300))
def test_parser_never_raises_on_any_text(raw: bytes | str) -> None:
    result = parse_envelope(raw)
    assert result is None or isinstance(result, Envelope)


@given(
    st.dictionaries(
        st.sampled_from(["schemaVersion", "tool", "status", "data", "summary", "errorCode", "zz"]),
        json_values,
    )
)
def test_parser_never_raises_on_envelope_like_dicts(raw: dict[str, object]) -> None:
    result = parse_envelope(raw)
    assert result is None or isinstance(result, Envelope)
