"""Checks a contract shape runs when it is constructed: a clear error, at once.

Why at construction: msgspec validates what it *decodes*, but a shape built in
Python (``ToolCall(tool_call_id=3, …)``) was taken as given and failed later,
far away — in a report, a publish, a 400 from the server. Each check names
the field (``ToolResult.text: expected str, got bytes``). A ``str`` subclass
(LangChain's and smolagents' strings) is taken as its ``str`` value, since
the encoder takes only ``str`` itself. The checks are a few ``type`` tests
per shape: the decoder runs them too, on values it has already checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

import msgspec

from toolview.contract.types import TIMESTAMP_PATTERN

__all__ = ["UNSET", "check_fields", "enc_hook", "marks_fine"]

_AT: Final = re.compile(TIMESTAMP_PATTERN)
_AT_MATCH: Final = _AT.match
UNSET: Final = msgspec.UNSET


def marks_fine(at: object, parent_call_id: object) -> bool:
    """The fast path's test of the two marks every observation may carry (exact types only).

    Why a fast path at all: the decoder runs ``__post_init__`` on every line it
    reads (the server, a log of a million lines), where every field is already
    right; each shape tests its own fields inline and calls ``check_fields`` —
    the slow path that coerces and names the wrong field — only when one is off.
    """
    return (at is UNSET or (type(at) is str and _AT_MATCH(at) is not None)) and (
        parent_call_id is UNSET or (type(parent_call_id) is str and parent_call_id != "")
    )


def _where(shape: msgspec.Struct, name: str) -> str:
    return f"{type(shape).__name__}.{name}"


def _got(value: object) -> str:
    return type(value).__name__


def _text(shape: msgspec.Struct, name: str, *, non_empty: bool) -> None:
    value = getattr(shape, name)
    if type(value) is not str:
        if not isinstance(value, str):
            raise TypeError(f"{_where(shape, name)}: expected str, got {_got(value)}")
        value = str(value)
        msgspec.structs.force_setattr(shape, name, value)
    if non_empty and not value:
        raise ValueError(f"{_where(shape, name)}: must not be empty")


def _optional(shape: msgspec.Struct, name: str, *, non_empty: bool) -> None:
    value = getattr(shape, name)
    if value is None:  # None means absent: the wire has no null for these
        msgspec.structs.force_setattr(shape, name, msgspec.UNSET)
    elif value is not msgspec.UNSET:
        _text(shape, name, non_empty=non_empty)


def _flag(shape: msgspec.Struct, name: str) -> None:
    value = getattr(shape, name)
    if type(value) is not bool:
        raise TypeError(f"{_where(shape, name)}: expected bool, got {_got(value)}")


def _count(shape: msgspec.Struct, name: str, *, optional: bool) -> None:
    value = getattr(shape, name)
    if optional and value is None:
        msgspec.structs.force_setattr(shape, name, msgspec.UNSET)
        return
    if optional and value is msgspec.UNSET:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{_where(shape, name)}: expected int, got {_got(value)}")
    if value < 0:
        raise ValueError(f"{_where(shape, name)}: must be >= 0, got {value}")
    if type(value) is not int:
        msgspec.structs.force_setattr(shape, name, int(value))


def _object(shape: msgspec.Struct, name: str) -> None:
    value = getattr(shape, name)
    if type(value) is dict:
        return
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{_where(shape, name)}: expected a dict (a JSON object), got {_got(value)}"
        )
    msgspec.structs.force_setattr(shape, name, dict(value))


def _choice(shape: msgspec.Struct, name: str, choices: tuple[str, ...]) -> None:
    value = getattr(shape, name)
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(choices)
        raise ValueError(f"{_where(shape, name)}: expected one of {allowed}, got {value!r:.60}")
    if type(value) is not str:
        msgspec.structs.force_setattr(shape, name, str(value))


def check_fields(
    shape: msgspec.Struct,
    *,
    non_empty: Iterable[str] = (),
    text: Iterable[str] = (),
    optional_text: Iterable[str] = (),
    flags: Iterable[str] = (),
    counts: Iterable[str] = (),
    optional_counts: Iterable[str] = (),
    objects: Iterable[str] = (),
    choices: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Check (and take str subclasses as str in) the named fields of ``shape``; raise
    ``TypeError``/``ValueError`` naming the first field that is wrong."""
    _optional(shape, "at", non_empty=True)
    at: object = getattr(shape, "at", msgspec.UNSET)
    if isinstance(at, str) and not _AT.match(at):
        raise ValueError(f"{_where(shape, 'at')}: not an RFC 3339 time in UTC, got {at!r:.60}")
    _optional(shape, "parent_call_id", non_empty=True)
    for name in non_empty:
        _text(shape, name, non_empty=True)
    for name in text:
        _text(shape, name, non_empty=False)
    for name in optional_text:
        _optional(shape, name, non_empty=False)
    for name in flags:
        _flag(shape, name)
    for name in counts:
        _count(shape, name, optional=False)
    for name in optional_counts:
        _count(shape, name, optional=True)
    for name in objects:
        _object(shape, name)
    for name, allowed in (choices or {}).items():
        _choice(shape, name, allowed)


def enc_hook(value: Any) -> Any:
    """What the encoder does with a value it has no rule for: a ``str``/``int``/``float``
    subclass deep in ``args`` or ``props`` is its plain value; anything else is an error."""
    for plain in (str, bool, int, float):
        if isinstance(value, plain):
            return plain(value)
    raise TypeError(f"cannot encode a {_got(value)} as JSON")
