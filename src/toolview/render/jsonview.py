"""A bounded, redacted, pretty view of any JSON value, as plain lines.

The value is first cut to what will be shown (depth, items per container, a
node budget, characters per string), then redacted with
``toolview.safety.redact_json`` (which sees keys such as ``password``), then
laid out. Every surface turns these lines into its own form, so JSON reads the
same everywhere and costs what is shown.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any, Final

from toolview.render.clean import REDACTION_MARGIN, clean_field
from toolview.render.limits import Limits, Omission, clip
from toolview.safety import clean_text, neutralize_terminal, redact_json

__all__ = ["args_preview", "cell_text", "json_lines"]

# Marks the "… N more items" placeholders inside the bounded copy. The random
# part means a string a tool sends can never pose as one. os.urandom is what
# secrets.token_hex reads, without importing hashlib and random at start-up.
_MARK: Final = f"\ue000{os.urandom(8).hex()}:"


def json_lines(value: Any, limits: Limits) -> list[str]:
    """Pretty JSON lines for ``value``, indented by two, within ``limits``."""
    budget = [max(1, limits.max_lines)]
    bounded = redact_json(_bound(value, limits, 0, budget))
    out: list[str] = []
    _emit(bounded, limits, "", "", "", out)
    return out


def args_preview(args: dict[str, Any], limits: Limits) -> str | None:
    """The call's arguments on one line, bounded and redacted; ``None`` if there are none."""
    if not args:
        return None
    line = " ".join(part.strip() for part in json_lines(args, _args_limits(limits)))
    shown, cut = clip(line, limits.max_args_chars)
    return f"{shown} {cut}" if cut else shown


@lru_cache(maxsize=16)
def _args_limits(limits: Limits) -> Limits:
    """The smaller bounds of an arguments line: made once per ``limits``, not once a call."""
    return replace(limits, max_json_depth=3, max_json_items=10, max_lines=40)


def cell_text(value: Any, max_chars: int) -> str:
    """One table cell: a string as itself, anything else as compact JSON; cleaned."""
    if not isinstance(value, str):  # json_lines has redacted and cleaned it already
        raw = " ".join(part.strip() for part in json_lines(value, _CELL_LIMITS))
        shown, cut = clip(raw, max_chars)
        return f"{shown} {cut}" if cut else shown
    return clean_field(value, max_chars)


_CELL_LIMITS: Final = Limits(max_json_depth=2, max_json_items=5, max_lines=20)


def _marker(text: str) -> str:
    return _MARK + text


def _bound(value: Any, limits: Limits, depth: int, budget: list[int]) -> Any:
    """A copy of ``value`` cut to what will be shown, with markers for the rest."""
    budget[0] -= 1
    if isinstance(value, dict):
        if depth >= limits.max_json_depth and value:
            return _marker(f"{{{Omission(len(value), 'items')}}}")
        return _bound_dict(value, limits, depth, budget)
    if isinstance(value, list):
        if depth >= limits.max_json_depth and value:
            return _marker(f"[{Omission(len(value), 'items')}]")
        return _bound_list(value, limits, depth, budget)
    if isinstance(value, str) and len(value) > limits.max_cell_chars:
        # Keep a margin for redaction and the full length for the wording.
        return f"{value[: limits.max_cell_chars + REDACTION_MARGIN]}{_MARK}len={len(value)}"
    return value


def _bound_dict(value: dict[Any, Any], limits: Limits, depth: int, budget: list[int]) -> Any:
    out: dict[str, Any] = {}
    for index, (key, item) in enumerate(value.items()):
        if index >= limits.max_json_items or budget[0] <= 0:
            out[_MARK] = _marker(str(Omission(len(value) - index, "items")))
            break
        out[str(key)] = _bound(item, limits, depth + 1, budget)
    return out


def _bound_list(value: list[Any], limits: Limits, depth: int, budget: list[int]) -> Any:
    out: list[Any] = []
    for index, item in enumerate(value):
        if index >= limits.max_json_items or budget[0] <= 0:
            out.append(_marker(str(Omission(len(value) - index, "items"))))
            break
        out.append(_bound(item, limits, depth + 1, budget))
    return out


def _emit(value: Any, limits: Limits, indent: str, lead: str, trail: str, out: list[str]) -> None:
    """``value``'s lines into ``out``; a placeholder is its own line, without key or comma."""
    if not (isinstance(value, dict | list) and value):
        out.append(f"{indent}{lead}{_scalar(value, limits)}{trail}")
        return
    inner, last = indent + "  ", len(value) - 1
    if isinstance(value, dict):
        out.append(f"{indent}{lead}{{")
        for index, (key, item) in enumerate(value.items()):
            if key == _MARK or (isinstance(item, str) and item.startswith(_MARK)):
                out.append(f"{inner}{_scalar(item, limits)}")
            else:
                comma = "," if index < last else ""
                _emit(item, limits, inner, f"{_key(key, limits)}: ", comma, out)
        out.append(f"{indent}}}{trail}")
        return
    out.append(f"{indent}{lead}[")
    for index, item in enumerate(value):
        if isinstance(item, str) and item.startswith(_MARK):
            out.append(f"{inner}{_scalar(item, limits)}")
        else:
            _emit(item, limits, inner, "", "," if index < last else "", out)
    out.append(f"{indent}]{trail}")


def _key(key: str, limits: Limits) -> str:
    return _shown_key(key[: limits.max_cell_chars])


@lru_cache(maxsize=4096)
def _shown_key(key: str) -> str:
    """A key cleaned and quoted: once per distinct key, not once per record that has it."""
    return _dumps(clean_text(key))


def _is_marker(text: str) -> bool:
    return text.startswith(_MARK)


def _scalar(value: Any, limits: Limits) -> str:
    if isinstance(value, str):
        if _is_marker(value):
            return value[len(_MARK) :]
        text, _, length = value.partition(_MARK + "len=")
        shown = _dumps(neutralize_terminal(text[: limits.max_cell_chars]))
        if length.isdigit():
            return f"{shown} {Omission(int(length) - limits.max_cell_chars, 'chars')}"
        return shown
    if value is None or isinstance(value, bool):
        return _CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)  # what json writes for an int (an IntEnum too)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, dict | list) and not value:
        return "{}" if isinstance(value, dict) else "[]"
    return _dumps(clean_text(repr(value))[: limits.max_cell_chars])


def _dumps(text: str) -> str:
    """``text`` as a JSON string on one line: ``json`` escapes ``\\n`` but not U+2028/U+2029,
    which some viewers break lines at, so those are escaped too (``\\u2028``).

    ``encode_basestring`` is what ``json.dumps(text, ensure_ascii=False)`` calls,
    without building a ``JSONEncoder`` for every string.
    """
    return encode_basestring(text).translate(_JSON_BREAKS)


_JSON_BREAKS: Final = {0x2028: "\\u2028", 0x2029: "\\u2029"}
_CONSTANTS: Final = {None: "null", True: "true", False: "false"}
