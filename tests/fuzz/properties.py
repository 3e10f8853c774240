"""The properties every fuzz target must keep, shared with the regression replay.

Each ``check_*`` takes one input and asserts: a value or the target's documented
rejection, never another exception; a value is what was given, never coerced
(``"3"`` is not ``3``, ``true`` is not ``1``, ``1.0`` is not ``1``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from fuzz.budget import COUNTS
from toolview.contract import (
    METADATA_KEY,
    Descriptor,
    Envelope,
    Observation,
    ObservationError,
    ToolResult,
    Truncation,
    decode_observation,
    encode_observation,
    parse_envelope,
    read_descriptor,
)
from toolview.contract.moments import at_ms, parse_at

_UNITS = ("lines", "bytes", "items")
STRICT = os.environ.get("TOOLVIEW_FUZZ_STRICT") == "1"
KNOWN_BUGS: dict[str, str] = {
    # Every bug fuzzing found so far is fixed; a new one is added here with its
    # shrunk input in regressions/ and a `.xfail` marker naming it.
}
"""Bugs already reported (each has an xfail(strict=True) input in regressions/).

A fuzz run tolerates them, counting each hit, so CI stays green while the bug
waits for its owner; ``TOOLVIEW_FUZZ_STRICT=1`` turns the tolerance off.
"""


def known_bug(name: str, error: BaseException) -> None:
    """Count a hit of a known bug, or re-raise it when running strict."""
    assert name in KNOWN_BUGS, name
    if STRICT:
        raise error
    COUNTS[f"known bug: {name}"] += 1


_VERSION = re.compile(r"(\d{1,9})\.(\d{1,9})")


def same(a: Any, b: Any) -> bool:
    """Equal as JSON *and* of the same types: ``True`` is not ``1``, ``1`` not ``1.0``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _is_int(value: object, minimum: int = 0) -> bool:
    return type(value) is int and value >= minimum


def descriptor_is_valid(raw: object) -> bool:
    """The contract's rule for a descriptor object, written out independently."""
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str) or not raw["kind"]:
        return False
    props = raw.get("props")  # required: a missing `props` is not `{}`
    if not isinstance(props, dict) or not all(isinstance(key, str) for key in props):
        return False
    if "truncated" not in raw:
        return True
    cut = raw["truncated"]
    return (
        isinstance(cut, dict)
        and set(cut) == {"shown", "total", "unit"}
        and _is_int(cut["shown"])
        and _is_int(cut["total"])
        and cut["shown"] <= cut["total"]
        and isinstance(cut["unit"], str)
        and cut["unit"] in _UNITS
    )


def check_read_descriptor(bag: object) -> Descriptor | None:
    """``read_descriptor``: never raises; accepts exactly the valid ones, uncoerced."""
    descriptor = read_descriptor(bag)
    raw = bag.get(METADATA_KEY) if isinstance(bag, dict) else None
    if descriptor is None:
        assert not descriptor_is_valid(raw), f"a valid descriptor was rejected: {raw!r}"
        return None
    assert isinstance(descriptor, Descriptor)
    assert isinstance(raw, dict) and descriptor_is_valid(raw), f"accepted invalid: {raw!r}"
    assert descriptor.kind == raw["kind"]
    assert same(descriptor.props, raw["props"])
    if "truncated" in raw:
        assert isinstance(descriptor.truncated, Truncation)
        assert same(msgspec.structs.asdict(descriptor.truncated), raw["truncated"])
    else:
        assert descriptor.truncated is msgspec.UNSET
    return descriptor


def envelope_is_valid(document: dict[str, Any]) -> bool:
    """The envelope's minimum fields, written out independently (bounds aside)."""
    version = document.get("schemaVersion")
    match = _VERSION.fullmatch(version) if isinstance(version, str) else None
    tool = document.get("tool")
    optional_text = all(
        isinstance(document[key], str) for key in ("summary", "errorCode") if key in document
    )
    return (
        match is not None
        and int(match.group(1)) == 1
        and isinstance(tool, str)
        and bool(tool)
        and isinstance(document.get("status"), str)
        and optional_text
    )


def check_parse_envelope(raw: object, document: dict[str, Any] | None = None) -> Envelope | None:
    """``parse_envelope``: never raises; for a known ``document``, accepts exactly the valid."""
    envelope = parse_envelope(raw)
    if document is not None:
        assert (envelope is not None) == envelope_is_valid(document), (document, envelope)
    if envelope is None:
        return None
    assert isinstance(envelope, Envelope)
    assert isinstance(envelope.schema_version, str) and envelope.tool
    assert isinstance(envelope.status, str)
    if document is not None:
        assert envelope.schema_version == document["schemaVersion"]
        assert envelope.tool == document["tool"] and envelope.status == document["status"]
        if "data" in document:
            assert same(envelope.data, document["data"])
    return envelope


def check_observation_round_trip(observation: Observation) -> None:
    """An observation any mapper emits is valid on the wire and reads back the same."""
    assert isinstance(observation, msgspec.Struct)
    again = decode_observation(encode_observation(observation))
    assert same(msgspec.to_builtins(again), msgspec.to_builtins(observation))


def check_decode_observation(
    line: bytes | str, document: dict[str, Any] | None = None
) -> Observation | None:
    """``decode_observation``: an observation or ``ObservationError``; never coerced."""
    try:
        observation = decode_observation(line)
    except ObservationError as error:
        assert error.path.startswith("$"), error.path
        assert "regex" not in error.reason, error  # a bad time is said in words
        return None
    check_observation_round_trip(observation)
    check_at(observation.at)
    if document is not None:
        decoded = msgspec.to_builtins(observation)
        for key, value in document.items():
            if key in decoded and key != "descriptor":
                assert same(decoded[key], value), (key, decoded[key], value)
        if isinstance(observation, ToolResult) and "descriptor" in document:
            check_read_descriptor({METADATA_KEY: document["descriptor"]})
            assert isinstance(observation.descriptor, Descriptor)
            assert observation.descriptor.kind == document["descriptor"]["kind"]
    return observation


def check_at(at: object) -> None:
    """A decoded ``at`` is a UTC time by the pattern; reading it gives a time or ``None``."""
    if at is msgspec.UNSET:
        return
    assert isinstance(at, str) and at.endswith("Z") and at[10] == "T", at
    moment = parse_at(at)
    ms = at_ms(at)
    assert (moment is None) == (ms is None), at
    if moment is not None:
        assert moment.isoformat().startswith(at[:19]), (at, moment)


def check_observations(observations: object) -> None:
    """A host's output: a list of valid, encodable observations."""
    assert isinstance(observations, list)
    for observation in observations:
        check_observation_round_trip(observation)


def message_of(value: Mapping[str, Any] | None) -> str:
    """The ``error`` of a JSON error response, for assertion messages."""
    return str(value.get("error")) if isinstance(value, Mapping) else repr(value)
