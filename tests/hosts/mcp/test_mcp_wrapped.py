"""The SDK's ``{"result": value}`` wrapping of a tool's plain return is shown once."""

from __future__ import annotations

from typing import Any

from toolview.contract import Descriptor
from toolview.hosts.mcp import map_result


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def test_a_wrapped_string_is_its_text_alone() -> None:
    result = map_result(
        {"content": [_text("hello there")], "structuredContent": {"result": "hello there"}}
    )
    assert result.text == "hello there"
    assert "result" not in result.text
    assert getattr(result.descriptor, "kind", None) not in ("json", "blocks")  # no second view


def test_a_wrapped_list_of_records_is_a_table_once() -> None:
    rows = [{"name": "a.txt", "size": 12}, {"name": "b.txt", "size": 34}]
    texts = ['{\n  "name": "a.txt",\n  "size": 12\n}', '{"name": "b.txt", "size": 34}']
    result = map_result(
        {"content": [_text(t) for t in texts], "structuredContent": {"result": rows}}
    )
    assert result.descriptor == Descriptor(
        "table", {"columns": ["name", "size"], "rows": [["a.txt", 12], ["b.txt", 34]]}
    )
    assert "structured content" not in result.text


def test_a_wrapped_number_is_its_json_view_once() -> None:
    result = map_result({"content": [_text("42")], "structuredContent": {"result": 42}})
    assert result.descriptor == Descriptor("json", {"value": 42})
    assert result.text == "42"


def test_a_result_key_that_is_not_a_copy_is_kept_as_it_came() -> None:
    result = map_result(
        {"content": [_text("done")], "structuredContent": {"result": "something else"}}
    )
    assert "structured content" in result.text and "something else" in result.text
    other = map_result(
        {"content": [_text("a"), _text("b")], "structuredContent": {"result": ["a", "c"]}}
    )
    assert "structured content" in other.text
