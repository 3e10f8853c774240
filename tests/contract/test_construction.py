"""Typed objects check their fields when built: a clear error naming the field, at once.

A ``str`` subclass is taken as its ``str`` value (LangChain and smolagents hand
such strings over, and the encoder takes only ``str``); ``None`` for an
optional field means absent.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolview import (
    Descriptor,
    Message,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
    Usage,
    decode_observation,
    encode_observation,
)


class Words(str):
    pass


class Count(int):
    pass


def _result(**fields: Any) -> ToolResult:
    base: dict[str, Any] = {
        "tool_call_id": "c1",
        "tool_name": "t",
        "text": "x",
        "complete": True,
        "is_error": False,
    }
    return ToolResult(**{**base, **fields})


BAD: list[tuple[str, Any, type[Exception], str]] = [
    ("call id an int", lambda: ToolCall(tool_call_id=3, tool_name="t", args={}), TypeError,
     "ToolCall.tool_call_id: expected str, got int"),
    ("empty name", lambda: ToolCall(tool_call_id="c", tool_name="", args={}), ValueError,
     "ToolCall.tool_name: must not be empty"),
    ("args a list", lambda: ToolCall(tool_call_id="c", tool_name="t", args=[1]), TypeError,
     "ToolCall.args: expected a dict (a JSON object), got list"),
    ("at not a time", lambda: ToolCall(tool_call_id="c", tool_name="t", args={}, at="now"),
     ValueError, "ToolCall.at: not an RFC 3339 time in UTC"),
    ("text bytes", lambda: _result(text=b"x"), TypeError,
     "ToolResult.text: expected str, got bytes"),
    ("complete an int", lambda: _result(complete=1), TypeError,
     "ToolResult.complete: expected bool, got int"),
    ("descriptor a dict", lambda: _result(descriptor={"kind": "json"}), TypeError,
     "ToolResult.descriptor: expected a Descriptor or None, got dict"),
    ("reason None", lambda: ToolRefused(tool_call_id="c", tool_name="t", reason=None), TypeError,
     "ToolRefused.reason: expected str, got NoneType"),
    ("unknown outcome", lambda: RunEnded(run_id="r", outcome="done"), ValueError,
     "RunEnded.outcome: expected one of completed, aborted, error, got 'done'"),
    ("unknown role", lambda: Message(role="robot", text="hi"), ValueError,
     "Message.role: expected one of user, assistant, thinking"),
    ("negative tokens", lambda: Usage(model="m", input_tokens=-1, output_tokens=0), ValueError,
     "Usage.input_tokens: must be >= 0, got -1"),
    ("tokens a float", lambda: Usage(model="m", input_tokens=1.5, output_tokens=0), TypeError,
     "Usage.input_tokens: expected int, got float"),
    ("empty run id", lambda: RunStarted(run_id=""), ValueError,
     "RunStarted.run_id: must not be empty"),
    ("empty kind", lambda: Descriptor("", {}), ValueError, "Descriptor.kind: must not be empty"),
    ("props a list", lambda: Descriptor("json", [1]), TypeError,
     "Descriptor.props: expected a dict or a props Struct, got list"),
    ("truncated a dict", lambda: Descriptor("json", {}, {"shown": 1}), TypeError,
     "Descriptor.truncated: expected a Truncation or None, got dict"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("build", "error", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_a_wrong_field_is_named_at_once(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        build()
    assert str(raised.value).startswith(message)


def test_str_subclasses_are_taken_as_str_and_encode() -> None:
    result = _result(tool_call_id=Words("c1"), tool_name=Words("t"), text=Words("out"))
    assert type(result.text) is str and type(result.tool_call_id) is str
    call = ToolCall(tool_call_id="c1", tool_name="t", args={"q": Words("deep"), "n": [Count(2)]})
    encoded = encode_observation(call)
    assert (
        encoded
        == b'{"kind":"tool-call","toolCallId":"c1","toolName":"t","args":{"q":"deep","n":[2]}}'
    )
    assert decode_observation(encode_observation(result)) == result
    message = Message(role=Words("user"), text=Words("hi"))
    assert type(message.role) is str and type(message.text) is str


def test_none_means_absent() -> None:
    result = _result(descriptor=None)
    assert result.descriptor is msgspec.UNSET
    assert b"descriptor" not in encode_observation(result)
    assert Descriptor("json", {"value": 1}, None).truncated is msgspec.UNSET
    assert RunEnded(run_id="r", outcome="completed", reason=None).reason is msgspec.UNSET
    usage = Usage(model="m", input_tokens=1, output_tokens=2, cache_read_tokens=None)
    assert usage.cache_read_tokens is msgspec.UNSET


def test_a_mapping_is_taken_as_a_dict() -> None:
    from types import MappingProxyType

    call = ToolCall(tool_call_id="c", tool_name="t", args=MappingProxyType({"a": 1}))
    assert type(call.args) is dict and call.args == {"a": 1}
    assert Descriptor("json", MappingProxyType({"value": 1})).props == {"value": 1}


def test_decoding_still_names_the_path() -> None:
    with pytest.raises(ValueError, match=r"\$\.toolCallId"):
        decode_observation(b'{"kind":"tool-call","toolCallId":"","toolName":"t","args":{}}')
    truncated = Truncation(shown=1, total=2, unit="items")
    assert Descriptor("json", {"value": 1}, truncated).truncated == truncated


@pytest.mark.parametrize("bad", [-1, True, 1.5, "3"])
def test_a_cache_count_is_checked_on_the_fast_path_too(bad: object) -> None:
    """Refactor guard (issue 23): ``Usage``'s fast check now takes set cache counts; a
    count that is no ``int`` ≥ 0 still fails, on either of the two fields."""
    kept = Usage(model="m", input_tokens=1, output_tokens=2, cache_read_tokens=0,
                 cache_write_tokens=7)  # fmt: skip
    assert (kept.cache_read_tokens, kept.cache_write_tokens) == (0, 7)
    for field in ("cache_read_tokens", "cache_write_tokens"):
        with pytest.raises((TypeError, ValueError)):
            Usage(model="m", input_tokens=1, output_tokens=2, **{field: bad})
