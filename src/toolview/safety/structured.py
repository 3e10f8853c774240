"""Redact a JSON-like value: every key and string, and what sensitive keys hold.

The value is walked once, iteratively (no recursion limit), into a copy whose
strings are collected and redacted together (``redact_many``: one literal
scan for all of them, not a scanner's fixed cost per scalar), then put in
their places.
"""

from __future__ import annotations

from toolview.safety.keys import key_name
from toolview.safety.noted import note
from toolview.safety.patterns import mark
from toolview.safety.secrets import redact_many

__all__ = ["DEPTH_MARK", "SIZE_MARK", "redact_json"]

DEPTH_MARK = "[depth limit]"
SIZE_MARK = "[size limit]"
_MAX_NODES = 1_000_000  # a shared sub-list repeated at every level is exponential

_Slot = tuple[list[object], int]  # a list and an index: where a value goes
_Task = tuple[object, int, list[object], int]  # (value, depth, target list, index)


def _scalar(value: object, slot: _Slot, strings: list[tuple[_Slot, str]]) -> object:
    """JSON scalars pass through, strings are queued for redaction, anything
    else is queued as its ``str()`` -- an unknown object is not trusted to be clean."""
    if value is None or isinstance(value, bool | int | float):
        return value
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception:
        return f"[unprintable {type(value).__name__}]"
    strings.append((slot, text))
    return None


def redact_json(value: object, *, max_depth: int = 64) -> object:
    """A redacted copy of a JSON-like value; the input is never modified.

    Strings (dict keys included) are redacted as by ``redact``; the value
    under a sensitive key (see ``SENSITIVE_KEYS``) is replaced whole, whatever
    its type; a value nested deeper than ``max_depth`` containers becomes
    ``"[depth limit]"``. Iterative, so no recursion limit; never raises.
    """
    root: list[object] = [None]
    tasks: list[_Task] = [(value, 0, root, 0)]
    dicts: list[tuple[dict[object, object], list[object], list[object]]] = []
    strings: list[tuple[_Slot, str]] = []
    nodes = 0
    while tasks:
        item, depth, target, slot = tasks.pop()
        nodes += 1
        if depth > max_depth:
            target[slot] = DEPTH_MARK
        elif nodes > _MAX_NODES:
            target[slot] = SIZE_MARK
        elif isinstance(item, dict):
            keys, values = _dict_entries(item, depth, tasks, strings)
            out: dict[object, object] = {}
            dicts.append((out, keys, values))
            target[slot] = out
        elif isinstance(item, list | tuple):
            items: list[object] = [None] * len(item)
            tasks.extend((child, depth + 1, items, i) for i, child in enumerate(item))
            target[slot] = items
        else:
            target[slot] = _scalar(item, (target, slot), strings)
    redacted = redact_many([text for _, text in strings])
    for ((target, slot), _), text in zip(strings, redacted, strict=True):
        target[slot] = text
    for out, keys, values in dicts:
        out.update(zip(keys, values, strict=True))
    return root[0]


def _dict_entries(
    item: dict[object, object],
    depth: int,
    tasks: list[_Task],
    strings: list[tuple[_Slot, str]],
) -> tuple[list[object], list[object]]:
    """Keys (strings queued for redaction), and a value list the queued tasks fill in."""
    keys: list[object] = []
    values: list[object] = []
    for key, child in item.items():
        name = key_name(key) if isinstance(key, str) else None
        keys.append(key)
        if isinstance(key, str):
            strings.append(((keys, len(keys) - 1), key))
        values.append(mark(name) if name is not None else None)
        if name is None:
            tasks.append((child, depth + 1, values, len(values) - 1))
        else:
            note(name)
    return keys, values
