"""``describe(value)``: a Python value a tool returned → its text and descriptor, never raising."""

from __future__ import annotations

import base64
import dataclasses
import datetime
import enum
import io
from typing import Any

import msgspec
import pytest
from PIL import Image
from pydantic import BaseModel

from toolview import Descriptor, Truncation, describe, validate_props
from toolview.contract.plain import MAX_ITEMS
from toolview.contract.structured import MAX_TABLE_ROWS

PNG_HEAD = b"\x89PNG\r\n\x1a\n"


class Model(BaseModel):
    name: str
    size: int


@dataclasses.dataclass
class Point:
    x: int
    when: datetime.date


class Struct(msgspec.Struct):
    tags: list[str]


class Colour(enum.Enum):
    RED = "red"


class Words(str):
    """What LangChain and smolagents hand over: a ``str`` subclass."""


def _kind(descriptor: Descriptor | None) -> str | None:
    return descriptor.kind if descriptor is not None else None


CASES: list[tuple[str, object, str, str | None, dict[str, Any] | None]] = [
    ("text", "hello\nworld", "hello\nworld", None, None),
    ("a str subclass", Words("hi"), "hi", None, None),
    ("none", None, "", None, None),
    ("a number", 3.5, "3.5", None, None),
    ("a bool", True, "true", None, None),
    ("an object", {"a": 1}, '{\n  "a": 1\n}', "json", {"value": {"a": 1}}),
    ("a list of scalars", [1, 2], "[\n  1,\n  2\n]", "json", {"value": [1, 2]}),
    (
        "flat records",
        [{"name": "a", "size": 1}, {"name": "b"}],
        '[\n  {\n    "name": "a",\n    "size": 1\n  },\n  {\n    "name": "b"\n  }\n]',
        "table",
        {"columns": ["name", "size"], "rows": [["a", 1], ["b", None]]},
    ),
    (
        "nested records are json",
        [{"a": {"b": 1}}],
        '[\n  {\n    "a": {\n      "b": 1\n    }\n  }\n]',
        "json",
        {"value": [{"a": {"b": 1}}]},
    ),
    (
        "an envelope",
        {"schemaVersion": "1.0", "tool": "t", "status": "ok", "data": {"n": 1}},
        None,
        "envelope",
        {"schemaVersion": "1.0", "tool": "t", "status": "ok", "data": {"n": 1}},
    ),
    (
        "an envelope in JSON text",
        '{"schemaVersion": "1.2", "tool": "t", "status": "ok"}',
        None,
        "envelope",
        {"schemaVersion": "1.2", "tool": "t", "status": "ok"},
    ),
    (
        "a pydantic model",
        Model(name="a", size=2),
        None,
        "json",
        {"value": {"name": "a", "size": 2}},
    ),
    (
        "a dataclass",
        Point(1, datetime.date(2026, 12, 1)),
        None,
        "json",
        {"value": {"x": 1, "when": "2026-12-01"}},
    ),
    ("a msgspec Struct", Struct(tags=["x"]), None, "json", {"value": {"tags": ["x"]}}),
    ("a tuple and a set", ((1, 2), {3}), None, "json", {"value": [[1, 2], [3]]}),
    ("an enum inside", {"colour": Colour.RED}, None, "json", {"value": {"colour": "red"}}),
    ("an exception", ValueError("bad input"), "ValueError: bad input", None, None),
    ("an exception without words", KeyError(), "KeyError", None, None),
    ("utf-8 bytes", "héllo".encode(), "héllo", None, None),
    ("binary bytes", b"\xff\xfe\x00", "<3 bytes of binary data>", None, None),
]


@pytest.mark.parametrize(
    ("value", "text", "kind", "props"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_describe(value: object, text: str | None, kind: str | None, props: object) -> None:
    described_text, descriptor = describe(value)
    if text is not None:
        assert described_text == text
    assert _kind(descriptor) == kind
    if descriptor is not None:
        assert descriptor.props == props
        assert descriptor.truncated is msgspec.UNSET
        validate_props(descriptor.kind, descriptor.props)  # a built-in kind's props, valid


def test_a_read_tool_s_text_is_a_file() -> None:
    text, descriptor = describe("x = 1\n", tool="read_file", args={"path": "a.py"})
    assert (text, descriptor) == (
        "x = 1\n",
        Descriptor("file", {"path": "a.py", "content": "x = 1\n"}),
    )
    for tool, args in [("write_file", {"path": "a.py"}), ("read_file", {}), (None, {"path": "a"})]:
        assert describe("x", tool=tool, args=args) == ("x", None)


def test_image_bytes_and_a_pil_image() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(buffer, format="PNG")
    png = buffer.getvalue()
    for value in (png, Image.open(io.BytesIO(png)), Image.new("L", (2, 2))):
        text, descriptor = describe(value, tool="screenshot")
        assert text.startswith("[image: image/png, ")
        assert descriptor is not None and descriptor.kind == "image"
        assert descriptor.props["mimeType"] == "image/png"
        assert descriptor.props["alt"] == "screenshot"
        assert base64.b64decode(descriptor.props["data"]).startswith(PNG_HEAD)
    assert describe(PNG_HEAD + b"\x00" * 10)[1] is not None
    assert describe(b"GIF89a" + b"\x00" * 10)[1] is not None


def test_an_image_over_the_cap_is_named_not_carried() -> None:
    text, descriptor = describe(PNG_HEAD + b"\x00" * (3 * 1024 * 1024))
    assert descriptor is None and "too large to carry" in text


def test_a_huge_list_is_cut_as_data() -> None:
    text, descriptor = describe(list(range(MAX_ITEMS + 5)))
    assert descriptor is not None and descriptor.kind == "json"
    assert descriptor.truncated == Truncation(shown=MAX_ITEMS, total=MAX_ITEMS + 5, unit="items")
    assert len(descriptor.props["value"]) == MAX_ITEMS
    assert text.rstrip().endswith(f"{MAX_ITEMS - 1}\n]")  # the text holds what is shown, no prose


def test_a_long_table_shows_its_first_rows_and_counts_them_all() -> None:
    rows = [{"n": n} for n in range(MAX_TABLE_ROWS + 10)]
    _, descriptor = describe(rows)
    assert descriptor is not None and descriptor.kind == "table"
    assert descriptor.truncated == Truncation(
        shown=MAX_TABLE_ROWS, total=MAX_TABLE_ROWS + 10, unit="items"
    )


def test_huge_items_are_cut_to_the_byte_budget() -> None:
    _, descriptor = describe(["x" * 100_000 for _ in range(100)])
    assert descriptor is not None and isinstance(descriptor.truncated, Truncation)
    assert descriptor.truncated.total == 100 and descriptor.truncated.shown < 100


class _Hostile:
    def __str__(self) -> str:
        raise RuntimeError("no")

    def __repr__(self) -> str:
        raise RuntimeError("no")


class _BadModel(BaseModel):
    def model_dump(self, **kwargs: Any) -> Any:  # type: ignore[override]
        raise RuntimeError("no")


@pytest.mark.parametrize("value", [_Hostile(), [_Hostile()], {"a": _Hostile()}, _BadModel()])
def test_describe_never_raises(value: object) -> None:
    text, descriptor = describe(value)
    assert text  # something visible, naming the type
    assert descriptor is None or descriptor.kind == "json"


def test_deep_nesting_is_a_visible_fallback() -> None:
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    text, descriptor = describe(value)
    assert text and descriptor is None
