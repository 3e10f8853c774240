"""The elicitation form: only the spec's flat primitive schema, and an answer that fits it."""

from __future__ import annotations

import pytest

from toolview.contract.elicitation import MAX_FIELDS, answer_problem, schema_problem

FORM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 5},
        "size": {"type": "string", "enum": ["s", "m"]},
        "count": {"type": "integer", "minimum": 1, "maximum": 8},
        "ok": {"type": "boolean"},
    },
    "required": ["name"],
}


def test_the_spec_form_is_accepted() -> None:
    assert schema_problem(FORM) is None


@pytest.mark.parametrize(
    "hostile",
    [
        "not a schema",
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "properties": {"a": {"type": "object", "properties": {}}}},
        {"type": "object", "properties": {"a": {"$ref": "#/x"}}},
        {"type": "object", "properties": {"a": {"type": "string", "pattern": "(a+)+$"}}},
        {"type": "object", "properties": {"a": {"type": "string"}}, "$defs": {}},
        {"type": "object", "properties": {}},
        {
            "type": "object",
            "properties": {key: {"type": "boolean"} for key in map(str, range(MAX_FIELDS + 1))},
        },
        {"type": "object", "properties": {"a": {"type": "string", "description": "x" * 5000}}},
        {"type": "object", "properties": {"a": {"type": "string", "enum": list("ab") * 40}}},
        {"type": "object", "properties": {"a\x1b[2J": {"type": "string"}}},
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]},
        {"type": "object", "properties": {"a": {"type": "string", "format": "regex"}}},
    ],
)
def test_a_hostile_schema_is_refused(hostile: object) -> None:
    assert schema_problem(hostile) is not None


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"name": "bob", "size": "m", "count": 3, "ok": True}, None),
        ({"name": "bob", "count": 3.0}, None),
        ({}, "lacks required"),
        ({"name": "bob", "extra": 1}, "does not ask"),
        ({"name": "toolong"}, "length above 5"),
        ({"name": "bob", "size": "xl"}, "not one of the choices"),
        ({"name": "bob", "count": 9}, "value above 8"),
        ({"name": "bob", "count": 2.5}, "not an integer"),
        ({"name": "bob", "count": True}, "not a number"),
        ({"name": "bob", "count": float("nan")}, "not a number"),
        ({"name": "bob", "ok": "yes"}, "not true or false"),
        ({"name": 7}, "not a string"),
    ],
)
def test_an_answer_fits_the_form_or_says_why_not(
    answer: dict[str, object], problem: str | None
) -> None:
    found = answer_problem(FORM, answer)
    assert found is None if problem is None else problem in (found or "")
