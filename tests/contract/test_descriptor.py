"""read_descriptor: takes the bag, rejects (never coerces), never raises."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview import METADATA_KEY, Descriptor, Truncation, read_descriptor


def bag(descriptor: object) -> dict[str, object]:
    return {METADATA_KEY: descriptor}


def test_metadata_key_is_namespaced_without_a_dot() -> None:
    assert METADATA_KEY == "toolview:result"
    assert "." not in METADATA_KEY


def test_reads_a_full_descriptor() -> None:
    raw = {
        "kind": "shell",
        "props": {"command": "ls"},
        "truncated": {"shown": 3, "total": 9, "unit": "lines"},
    }
    descriptor = read_descriptor({**bag(raw), "other": 1})
    assert descriptor == Descriptor("shell", {"command": "ls"}, Truncation(3, 9, "lines"))


def test_unknown_kind_is_valid_not_a_failure() -> None:
    descriptor = read_descriptor(bag({"kind": "acme.never-seen", "props": {}}))
    assert descriptor is not None
    assert descriptor.kind == "acme.never-seen"


def test_props_are_required_and_truncation_may_be_absent() -> None:
    assert read_descriptor(bag({"kind": "x"})) is None  # no props: malformed, not `{}`
    descriptor = read_descriptor(bag({"kind": "x", "props": {}}))
    assert descriptor is not None
    assert descriptor.props == {}
    assert descriptor.truncated is msgspec.UNSET


def test_a_descriptor_built_without_props_is_refused() -> None:
    with pytest.raises(TypeError, match="props"):
        Descriptor("x")  # type: ignore[call-arg]


@pytest.mark.parametrize("unit", ["lines", "bytes", "items"])
def test_every_truncation_unit_is_accepted(unit: str) -> None:
    descriptor = read_descriptor(
        bag({"kind": "x", "props": {}, "truncated": {"shown": 0, "total": 0, "unit": unit}})
    )
    assert descriptor is not None
    assert isinstance(descriptor.truncated, Truncation)
    assert descriptor.truncated.unit == unit


MALFORMED: list[Any] = [
    {"kind": "x"},
    {"kind": "x", "truncated": {"shown": 3, "total": 4, "unit": "lines"}},
    {"kind": "", "props": {}},
    {"kind": 3, "props": {}},
    {"kind": None, "props": {}},
    {"props": {}},
    {"kind": "x", "props": None},
    {"kind": "x", "props": []},
    {"kind": "x", "props": "{}"},
    {"kind": "x", "props": {}, "truncated": None},
    {"kind": "x", "props": {}, "truncated": {"shown": "3", "total": 4, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": 3.0, "total": 4, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": True, "total": 4, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": -1, "total": 4, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": 3, "total": None, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": 3, "total": 4}},
    {"kind": "x", "props": {}, "truncated": {"shown": 3, "total": 4, "unit": "chars"}},
    {"kind": "x", "props": {}, "truncated": {"shown": 5, "total": 4, "unit": "lines"}},
    {"kind": "x", "props": {}, "truncated": {"shown": 1, "total": 4, "unit": "lines", "extra": 1}},
    '{"kind": "x", "props": {}}',
    ["kind", "x"],
    None,
    42,
]


@pytest.mark.parametrize("raw", MALFORMED, ids=repr)
def test_malformed_descriptors_are_rejected(raw: object) -> None:
    assert read_descriptor(bag(raw)) is None


@pytest.mark.parametrize(
    "metadata", [None, [], "toolview:result", 3, {}, {"toolview.result": {"kind": "x"}}]
)
def test_a_bag_without_a_descriptor_gives_none(metadata: object) -> None:
    assert read_descriptor(metadata) is None


class HostileMapping(dict[str, object]):
    def get(self, *args: object, **kwargs: object) -> object:
        raise RuntimeError("boom")


def test_a_hostile_bag_does_not_raise() -> None:
    assert read_descriptor(HostileMapping()) is None


def test_deeply_nested_props_do_not_raise() -> None:
    props: Any = {}
    for _ in range(100_000):
        props = {"a": props}
    result = read_descriptor(bag({"kind": "x", "props": props}))
    assert result is None or isinstance(result, Descriptor)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["kind", "props", "truncated", "x"]), json_values))
def test_reader_returns_a_descriptor_or_none_for_any_shape(raw: dict[str, object]) -> None:
    result = read_descriptor(bag(raw))
    assert result is None or isinstance(result, Descriptor)


@given(json_values)
def test_reader_never_raises_for_any_bag(metadata: object) -> None:
    result = read_descriptor(metadata)
    assert result is None or isinstance(result, Descriptor)
