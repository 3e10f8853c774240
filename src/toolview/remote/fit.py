"""Cut a final tool-result to fit a server's body limit, saying what was cut.

Why: a final result bigger than ``toolview serve --body-limit`` could not be
published at all, and the thread would never show how the call ended. Its end
is what matters (exit code, last lines), so every overlong string keeps its
tail and the descriptor's ``truncated`` records how much is shown — truncation
as data, never a silently shorter string. A result without a descriptor has
no kind to keep and nowhere to record the cut, so it is not cut (the caller
fails clearly instead).
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Descriptor, Observation, ToolResult, Truncation, encode_observation

__all__ = ["fit_result", "line_cost"]


def fit_result(result: ToolResult, max_bytes: int) -> ToolResult | None:
    """``result`` cut to encode in ``max_bytes`` (a body line), or None if it cannot.

    Every string longer than a cap (the text and the descriptor's props alike)
    keeps only its last ``cap`` characters — the end of output is what tells
    how a call ended — with the largest cap that fits, found by bisection.
    """
    if not isinstance(result.descriptor, Descriptor):
        return None  # no kind to keep and nowhere honest to say what was cut
    best: ToolResult | None = None
    low, high = 0, max([len(result.text), *_string_lengths(_props(result))])
    while low <= high:
        cap = (low + high) // 2
        candidate = _capped(result, cap)
        if line_cost(candidate) <= max_bytes:
            best, low = candidate, cap + 1
        else:
            high = cap - 1
    return best


def _capped(result: ToolResult, cap: int) -> ToolResult:
    """Strings over ``cap`` characters cut to their tails; the truncation recorded."""
    text = _tail(result.text, cap)
    old = result.descriptor
    was = old.truncated if isinstance(old, Descriptor) else msgspec.UNSET
    total = was.total if isinstance(was, Truncation) and was.unit == "bytes" else None
    truncated = Truncation(len(text.encode()), total or len(result.text.encode()), "bytes")
    assert isinstance(old, Descriptor)  # fit_result only cuts results with a descriptor
    props = _cap_strings(old.props, cap)
    return msgspec.structs.replace(
        result, text=text, descriptor=Descriptor(old.kind, props, truncated)
    )


def _props(result: ToolResult) -> dict[str, Any]:
    return result.descriptor.props if isinstance(result.descriptor, Descriptor) else {}


def _tail(text: str, cap: int) -> str:
    return text[len(text) - cap :] if len(text) > cap else text


def _cap_strings(value: Any, cap: int) -> Any:
    if isinstance(value, str):
        return _tail(value, cap)
    if isinstance(value, dict):
        return {key: _cap_strings(item, cap) for key, item in value.items()}
    if isinstance(value, list):
        return [_cap_strings(item, cap) for item in value]
    return value


def _string_lengths(value: Any) -> list[int]:
    if isinstance(value, str):
        return [len(value)]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _string_lengths(item)]
    if isinstance(value, list):
        return [n for item in value for n in _string_lengths(item)]
    return []


def line_cost(observation: Observation) -> int:
    """Its share of a JSON Lines body, in bytes (exactly what ``Publisher`` sends)."""
    return len(encode_observation(observation)) + 1
