"""Python values → plain JSON values, bounded: what ``describe`` shows of a tool's return.

Why msgspec's JSON encoder with a hook: it already knows dataclasses, its
own Structs, datetimes, UUIDs, enums, sets and tuples, at C speed; the hook
adds pydantic models (``model_dump(mode="json")``) and takes anything else as
its ``str``. Bounds are data, never a pre-cut string: a list (or an object)
with too many items keeps its first ones and says how many there were.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract.descriptor import Truncation

__all__ = ["MAX_ITEMS", "MAX_JSON_BYTES", "bounded", "to_plain"]

MAX_ITEMS: Final = 10_000
"""Items of a top-level list or object kept; the rest only counted."""
MAX_JSON_BYTES: Final = 2 * 1024 * 1024
"""Encoded size a described value is cut to (by whole items) when it is larger."""
_ENCODER: Final = msgspec.json.Encoder()


def _hook(value: Any) -> Any:
    dump = getattr(type(value), "model_dump", None)  # a pydantic model (v2)
    if callable(dump):
        return value.model_dump(mode="json")
    try:
        return str(value)
    except Exception:  # a hostile __str__: named, not lost
        return f"<unprintable {type(value).__name__}>"


_HOOKED: Final = msgspec.json.Encoder(enc_hook=_hook)


def to_plain(value: object) -> Any:
    """``value`` as plain JSON values: what JSON text of it decodes to (tuples are lists,
    keys are strings). Raises on what even the hook cannot take (nesting too deep)."""
    return msgspec.json.decode(_HOOKED.encode(value))


def bounded(value: Any) -> tuple[Any, Truncation | None]:
    """A top-level list or object cut to ``MAX_ITEMS`` and ``MAX_JSON_BYTES``, and the cut."""
    if not isinstance(value, list | dict) or not value:
        return value, None
    total = len(value)
    shown = min(total, MAX_ITEMS)
    cut = _first(value, shown)
    while shown > 1 and len(_ENCODER.encode(cut)) > MAX_JSON_BYTES:
        shown //= 2
        cut = _first(value, shown)
    return cut, (Truncation(shown=shown, total=total, unit="items") if shown < total else None)


def _first(value: list[Any] | dict[str, Any], count: int) -> Any:
    if isinstance(value, list):
        return value[:count]
    return dict(list(value.items())[:count]) if count < len(value) else value
