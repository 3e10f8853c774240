"""Descriptor patches: a partial's descriptor is stored as changes, rebuilt exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import Descriptor
from toolview.wire.delta import DeltaError
from toolview.wire.props_delta import apply_patch, make_patch

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
PROPS = st.dictionaries(st.sampled_from(["stdout", "stderr", "exitCode", "x"]), JSON, max_size=4)


def test_a_growing_stdout_is_stored_as_its_suffix() -> None:
    old = Descriptor("shell", {"command": "make", "stdout": "a\n", "exitCode": None})
    new = Descriptor("shell", {"command": "make", "stdout": "a\nb\n", "exitCode": None})
    patch = make_patch(old, new)
    assert patch.props == {"command": ["="], "stdout": ["+", "b\n"], "exitCode": ["="]}
    assert apply_patch(old, patch) == new


def test_a_patch_without_its_base_is_a_gap() -> None:
    patch = make_patch(Descriptor("k", {"a": "x"}), Descriptor("k", {"a": "xy"}))
    with pytest.raises(DeltaError):
        apply_patch(None, patch)


@given(PROPS, PROPS)
def test_apply_of_make_patch_is_exact_keys_order_and_types(old: dict, new: dict) -> None:  # type: ignore[type-arg]
    rebuilt = apply_patch(
        Descriptor("k", old), make_patch(Descriptor("k", old), Descriptor("k", new))
    )
    assert rebuilt == Descriptor("k", new)
    assert list(rebuilt.props) == list(new)
    assert [type(v) for v in rebuilt.props.values()] == [type(v) for v in new.values()]
