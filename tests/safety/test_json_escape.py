"""``escape_json``: JSON text that a terminal cannot be steered by, read back to the same value."""

from __future__ import annotations

import json
import re

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from toolview.safety.invisible import INVISIBLE_CLASS
from toolview.safety.json_escape import escape_json

_OBEYED = re.compile(f"[\x7f-\x9f{INVISIBLE_CLASS}\u2028\u2029]")
_HOSTILE = st.sampled_from("\x7f\x85\x9b\x9c\x9d\u202a\u202e\u2066\u2069\u200f\u2028\U000e0041")
_TEXT = st.lists(st.one_of(_HOSTILE, st.characters(exclude_categories=["Cs"]))).map("".join)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), _TEXT),
    lambda inner: st.lists(inner) | st.dictionaries(_TEXT, inner),
    max_leaves=20,
)


@given(_VALUES)
def test_any_value_reads_back_the_same_with_nothing_a_terminal_obeys(value: object) -> None:
    for text in (json.dumps(value, ensure_ascii=False), msgspec.json.encode(value).decode()):
        escaped = escape_json(text)
        assert _OBEYED.search(escaped) is None
        assert json.loads(escaped) == value and msgspec.json.decode(escaped) == value


def test_a_csi_is_spelled_as_its_escape() -> None:
    assert escape_json('{"a":"x\x9b2J\u202e"}') == '{"a":"x\\u009b2J\\u202e"}'
    assert escape_json('"\U000e0041"') == '"\\udb40\\udc41"'
