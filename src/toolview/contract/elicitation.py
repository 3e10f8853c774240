"""An MCP elicitation's form: the schema a server may ask with, and an answer that fits it.

Why one home: ``rec.mcp(session)`` refuses a hostile schema before a person
sees it and checks the answer before the server gets it, and the decision
endpoint refuses an answer that does not fit the waiting call's schema (400,
nothing written) — the same rule on both sides. The spec allows a flat object
of primitive properties only (string with its formats or an enum, number,
integer, boolean); anything else (nesting, ``$ref``, arrays, a huge form) is
refused, and the client declines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

__all__ = ["MAX_FIELDS", "answer_problem", "schema_problem"]

MAX_FIELDS: Final = 32
_NAME: Final = 64  # characters of a property's name
_TEXT: Final = 4096  # characters of a title, description, enum value or a string answer
_ENUM: Final = 64
_TYPES: Final = frozenset({"string", "number", "integer", "boolean"})
_FORMATS: Final = frozenset({"email", "uri", "date", "date-time"})
_KEYS: Final = frozenset(
    {"type", "title", "description", "default", "enum", "enumNames", "format"}
    | {"minLength", "maxLength", "minimum", "maximum"}
)


def schema_problem(schema: object) -> str | None:
    """Why ``schema`` is not a form toolview shows (``None``: it is one)."""
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return "the requested schema is not an object"
    if set(schema) - {"type", "properties", "required", "$schema", "title", "description"}:
        return "the requested schema has keys the spec does not allow"
    fields, required = schema.get("properties", {}), schema.get("required", [])
    if not isinstance(fields, Mapping) or not 0 < len(fields) <= MAX_FIELDS:
        return f"the requested schema needs 1 to {MAX_FIELDS} properties"
    if not isinstance(required, list) or any(name not in fields for name in required):
        return "the requested schema requires a property it does not have"
    for name, field in fields.items():
        problem = _field_problem(name, field)
        if problem is not None:
            return problem
    return None


def _field_problem(name: object, field: object) -> str | None:
    if not isinstance(name, str) or not 0 < len(name) <= _NAME or not name.isprintable():
        return "a property's name is not a short printable word"
    if not isinstance(field, Mapping) or field.get("type") not in _TYPES:
        return f"property {name!r} is not a string, number, integer or boolean"
    if set(field) - _KEYS:
        return f"property {name!r} has keys the spec does not allow"
    if field.get("format", "email") not in _FORMATS:
        return f"property {name!r} has an unknown format"
    enum = field.get("enum")
    if enum is not None and not (
        isinstance(enum, list) and 0 < len(enum) <= _ENUM and all(_short(v) for v in enum)
    ):
        return f"property {name!r} has an enum that is not a short list of strings"
    if not all(_short(field.get(key, "")) for key in ("title", "description")):
        return f"property {name!r} has a title or description that is not short text"
    return None


def answer_problem(schema: Mapping[str, object], answer: Mapping[str, object]) -> str | None:
    """Why ``answer`` does not fit ``schema`` (a schema ``schema_problem`` accepted)."""
    fields = schema.get("properties")
    required = schema.get("required", [])
    assert isinstance(fields, Mapping) and isinstance(required, list)
    if unknown := sorted(set(answer) - set(fields))[:3]:
        return f"the answer has fields the form does not ask: {unknown}"
    if missing := [name for name in required if name not in answer][:3]:
        return f"the answer lacks required fields: {missing}"
    for name, value in answer.items():
        problem = _value_problem(fields[name], value)
        if problem is not None:
            return f"field {name!r}: {problem}"
    return None


def _value_problem(field: Mapping[str, object], value: object) -> str | None:
    kind = field["type"]
    if kind == "boolean":
        return None if isinstance(value, bool) else "not true or false"
    if kind == "string":
        if not _short(value):
            return "not a string of at most 4096 characters"
        assert isinstance(value, str)
        enum = field.get("enum")
        if isinstance(enum, list) and value not in enum:
            return "not one of the choices"
        return _bounds(len(value), field.get("minLength"), field.get("maxLength"), "length")
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "not a number"
    if kind == "integer" and not float(value).is_integer():
        return "not an integer"
    return _bounds(value, field.get("minimum"), field.get("maximum"), "value")


def _bounds(value: float, low: object, high: object, what: str) -> str | None:
    if isinstance(low, int | float) and value < low:
        return f"{what} below {low}"
    if isinstance(high, int | float) and value > high:
        return f"{what} above {high}"
    return None


def _short(value: object) -> bool:
    return isinstance(value, str) and len(value) <= _TEXT
