"""Defined outcomes at the contract: decoding observations, envelopes and descriptors."""

from __future__ import annotations

import msgspec
import pytest

from edge import inputs
from toolview.contract import (
    METADATA_KEY,
    ObservationError,
    ToolCall,
    ToolResult,
    decode_observation,
    encode_observation,
    parse_envelope,
    read_descriptor,
)


def test_invalid_utf8_is_an_observation_error() -> None:
    with pytest.raises(ObservationError):
        decode_observation(inputs.INVALID_UTF8)


def test_a_str_with_a_lone_surrogate_is_an_observation_error() -> None:
    with pytest.raises(ObservationError):
        decode_observation(inputs.CALL.decode().replace("Tedge", "T\ud800"))


def test_a_lone_surrogate_escape_is_malformed_json() -> None:
    with pytest.raises(ObservationError, match="malformed JSON"):
        decode_observation(inputs.LONE_SURROGATE)


def test_a_surrogate_pair_escape_is_one_character() -> None:
    result = decode_observation(inputs.SURROGATE_PAIR)
    assert isinstance(result, ToolResult) and result.text == "emoji \U0001f600"


def test_an_escaped_nul_is_kept_and_a_raw_nul_is_malformed() -> None:
    result = decode_observation(inputs.NUL_ESCAPED)
    assert isinstance(result, ToolResult) and result.text == "nul \x00 here"
    with pytest.raises(ObservationError, match="malformed JSON"):
        decode_observation(inputs.NUL_RAW)


def test_a_10_mb_line_decodes_whole() -> None:
    result = decode_observation(inputs.HUGE_LINE)
    assert isinstance(result, ToolResult) and len(result.text) == inputs.TEN_MB


def test_nesting_100000_deep_is_refused_not_a_crash() -> None:
    with pytest.raises(ObservationError) as caught:
        decode_observation(inputs.DEEP)
    assert caught.value.path.startswith("$")


def test_integers_past_64_bits_are_kept_exactly() -> None:
    call = decode_observation(inputs.BIG_INT)
    assert isinstance(call, ToolCall) and call.args["n"] == inputs.BIG
    assert type(call.args["n"]) is int
    assert str(inputs.BIG).encode() in encode_observation(call)


def test_an_integer_past_the_decoder_range_is_refused() -> None:
    with pytest.raises(ObservationError, match="out of range"):
        decode_observation(inputs.HUGE_INT)


def test_duplicate_keys_the_last_wins() -> None:
    result = decode_observation(inputs.DUPLICATE_KEYS)
    assert isinstance(result, ToolResult) and result.text == "second"


@pytest.mark.parametrize(
    ("raw", "accepted"),
    [
        (inputs.ENVELOPE.replace(b"%s", b'"\xff"'), False),
        (inputs.ENVELOPE.replace(b"%s", b'"\\ud800"'), False),
        (inputs.ENVELOPE.decode().replace("%s", '"\ud800"'), False),
        (inputs.ENVELOPE.replace(b"%s", b'"\\u0000"'), True),
        (inputs.ENVELOPE.replace(b"%s", b'"' + b"z" * inputs.TEN_MB + b'"'), False),
        (inputs.ENVELOPE.replace(b"%s", b"[" * inputs.DEPTH + b"]" * inputs.DEPTH), False),
        (inputs.ENVELOPE.replace(b"%s", str(inputs.BIG).encode()), True),
        (inputs.ENVELOPE.replace(b"%s", b"1" + b"0" * 5000), False),
    ],
    ids=[
        "invalid-utf8",
        "surrogate-escape",
        "surrogate-str",
        "nul",
        "10mb",
        "deep",
        "bigint",
        "hugeint",
    ],
)
def test_parse_envelope_outcomes(raw: bytes | str, accepted: bool) -> None:
    envelope = parse_envelope(raw)
    assert (envelope is not None) is accepted
    if envelope is not None:
        assert envelope.data in ("\x00", inputs.BIG)


def test_parse_envelope_duplicate_keys_the_last_wins() -> None:
    envelope = parse_envelope(b'{"schemaVersion":"1.0","tool":"a","tool":"b","status":"ok"}')
    assert envelope is not None and envelope.tool == "b"
    assert parse_envelope(b'{"schemaVersion":"1.0","tool":"a","tool":"","status":"ok"}') is None


def _deep(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("descriptor", "accepted"),
    [
        ({"kind": "k\ud800", "props": {}}, True),
        ({"kind": "k"}, False),
        ({"kind": "k", "props": {"s": "nul\x00"}}, True),
        ({"kind": "k", "props": {"n": inputs.BIG}}, True),
        (
            {
                "kind": "k",
                "props": {},
                "truncated": {"shown": inputs.BIG, "total": inputs.BIG, "unit": "lines"},
            },
            True,
        ),
        ({"kind": "k", "props": {"deep": _deep(inputs.DEPTH)}}, True),
        (
            {"kind": "k", "props": {}, "truncated": {"shown": True, "total": 2, "unit": "lines"}},
            False,
        ),
        (
            {"kind": "k", "props": {}, "truncated": {"shown": 1.0, "total": 2, "unit": "lines"}},
            False,
        ),
    ],
    ids=[
        "surrogate-kind",
        "no-props",
        "nul",
        "bigint-props",
        "bigint-truncation",
        "deep-props",
        "bool",
        "float",
    ],
)
def test_read_descriptor_outcomes(descriptor: dict[str, object], accepted: bool) -> None:
    """A bag is already decoded: what is in it is kept as given (props are not walked)."""
    result = read_descriptor({METADATA_KEY: descriptor})
    assert (result is not None) is accepted
    if result is not None:
        assert result.kind == descriptor["kind"]
        assert result.props is not None


def test_read_descriptor_of_a_decoded_json_bag_keeps_the_last_duplicate() -> None:
    bag = msgspec.json.decode(b'{"toolview:result":{"kind":"a","props":{},"kind":"b"}}')
    result = read_descriptor(bag)
    assert result is not None and result.kind == "b"
