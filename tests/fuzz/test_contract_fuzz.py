"""Fuzz the contract's readers: ``read_descriptor``, ``parse_envelope``, ``decode_observation``."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from fuzz import strategies as s
from fuzz.budget import fuzz
from fuzz.properties import (
    check_decode_observation,
    check_parse_envelope,
    check_read_descriptor,
)
from toolview.contract import METADATA_KEY


@given(s.metadata_bags)
@fuzz("read_descriptor")
def test_read_descriptor_accepts_exactly_the_valid(bag: Any) -> None:
    check_read_descriptor(bag)


@given(s.descriptors)
@fuzz("read_descriptor")
def test_read_descriptor_after_a_json_round_trip(raw: dict[str, Any]) -> None:
    """What crossed the wire reads the same as what was built in Python."""
    check_read_descriptor({METADATA_KEY: msgspec.json.decode(msgspec.json.encode(raw))})


@given(s.envelope_documents)
@fuzz("parse_envelope")
def test_parse_envelope_accepts_exactly_the_valid(document: dict[str, Any]) -> None:
    check_parse_envelope(document, document)
    check_parse_envelope(msgspec.json.encode(document), document)
    check_parse_envelope(json.dumps(document), document)


@given(st.binary(max_size=200) | st.text(max_size=200) | s.python_values)
@fuzz("parse_envelope")
def test_parse_envelope_never_raises_on_junk(raw: Any) -> None:
    check_parse_envelope(raw)


@given(s.observation_documents)
@fuzz("decode_observation")
def test_decode_observation_keeps_what_it_was_given(document: dict[str, Any]) -> None:
    check_decode_observation(msgspec.json.encode(document), document)


@given(
    st.binary(max_size=300)
    | s.observation_documents.map(lambda doc: msgspec.json.encode(doc)[:-3] + b'\xff"}')
    | st.text(max_size=200)
)
@fuzz("decode_observation")
def test_decode_observation_rejects_junk_clearly(line: bytes | str) -> None:
    check_decode_observation(line)
