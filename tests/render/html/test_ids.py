"""A call's element id: the usual host ids take a one-``replace`` path that must spell them
exactly as the character-at-a-time rule does (a refactor guard: base passes too)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from corpora.secrets import SECRETS
from toolview.render.html.ids import ID_PREFIX, call_element_id
from toolview.safety import redact
from toolview.safety.opaque import crossing_id

_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def _by_rule(tool_call_id: str) -> str:
    """The module's docstring, written out: each character outside ``[A-Za-z0-9-]`` as
    ``_hex_``; over 96 characters (or spelled over 192) a hash of the (opaque) id."""
    safe = crossing_id(tool_call_id, redact)
    spelled = "".join(ch if ch in _PLAIN else f"_{ord(ch):x}_" for ch in safe[:97])
    if len(safe) <= 96 and len(spelled) <= 192:
        return ID_PREFIX + spelled
    return f"{ID_PREFIX}h-{hashlib.sha256(safe.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}"


_ID = st.lists(st.sampled_from(["a", "Z", "9", "-", "_", "toolu_01", ".", " ", "\"", "<", "é",
                                "\ud800", "x" * 40]), max_size=12).map("".join)  # fmt: skip


@given(_ID)
def test_an_id_is_spelled_by_the_rule(tool_call_id: str) -> None:
    assert call_element_id(tool_call_id) == _by_rule(tool_call_id)


def test_host_ids_and_secret_ids_are_spelled_by_the_rule() -> None:
    usual = ["toolu_01ABCdef234ghiJKL567mno", "call_abc-DEF_9", "_" * 48, "a" * 48, "a" * 49]
    for tool_call_id in usual + [text for text, _ in SECRETS.values()]:
        assert call_element_id(tool_call_id) == _by_rule(tool_call_id)
    for text, secret in SECRETS.values():
        assert secret not in call_element_id(text)
