"""A tool author's typed props: checked by mypy, and on the wire exactly the dict form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from mypy import api as mypy_api

from toolview import (
    KIND_PROPS,
    METADATA_KEY,
    DiffProps,
    Envelope,
    FileProps,
    ImageProps,
    JsonProps,
    Link,
    LinksProps,
    MarkdownProps,
    ShellProps,
    TableProps,
    TodoItem,
    TodoProps,
    ToolResult,
    decode_observation,
    encode_observation,
    read_descriptor,
    validate_props,
)
from toolview.contract import Descriptor
from toolview.contract.blocks import BlocksProps, TextBlock

# Each kind built typed, and the JSON object a producer would have written by hand.
TYPED: dict[str, tuple[msgspec.Struct, dict[str, Any]]] = {
    "shell": (
        ShellProps(command="pytest", exit_code=1, stdout="1 failed", stderr="", duration_ms=7),
        {"command": "pytest", "exitCode": 1, "stdout": "1 failed", "stderr": "", "durationMs": 7},
    ),
    "file": (
        FileProps(path="a.py", content="x = 1\n", start_line=3),
        {"path": "a.py", "content": "x = 1\n", "startLine": 3},
    ),
    "diff": (DiffProps(diff="-a\n+b\n", path="a"), {"diff": "-a\n+b\n", "path": "a"}),
    "json": (JsonProps(value={"a": [1, None]}), {"value": {"a": [1, None]}}),
    "table": (TableProps(columns=["n"], rows=[[1], [2]]), {"columns": ["n"], "rows": [[1], [2]]}),
    "links": (
        LinksProps(links=[Link(title="t", url="https://x.test")]),
        {"links": [{"title": "t", "url": "https://x.test"}]},
    ),
    "image": (
        ImageProps(mime_type="image/png", data="aGk="),
        {"mimeType": "image/png", "data": "aGk="},
    ),
    "markdown": (MarkdownProps(markdown="# hi"), {"markdown": "# hi"}),
    "envelope": (
        Envelope(schema_version="1.0", tool="t", status="ok"),
        {"schemaVersion": "1.0", "tool": "t", "status": "ok"},
    ),
    "blocks": (
        BlocksProps(blocks=[TextBlock(text="t")]),
        {"blocks": [{"type": "text", "text": "t"}]},
    ),
    "todo": (
        TodoProps(
            items=[TodoItem(content="Run tests", status="in_progress", active_form="Running")]
        ),
        {"items": [{"content": "Run tests", "status": "in_progress", "activeForm": "Running"}]},
    ),
}


def test_every_built_in_kind_is_covered() -> None:
    assert set(TYPED) == set(KIND_PROPS)


@pytest.mark.parametrize("kind", TYPED)
def test_a_typed_descriptor_is_the_dict_form_on_the_wire(kind: str) -> None:
    typed, raw = TYPED[kind]
    built = Descriptor(kind, typed)
    assert built == Descriptor(kind, raw)
    assert msgspec.json.encode(built) == msgspec.json.encode(Descriptor(kind, raw))
    assert read_descriptor({METADATA_KEY: msgspec.to_builtins(built)}) == built
    result = ToolResult("c1", "t", "text", complete=True, is_error=False, descriptor=built)
    assert decode_observation(encode_observation(result)) == result
    assert validate_props(kind, built.props) == typed


def test_an_absent_optional_prop_is_absent_and_a_null_exit_code_is_null() -> None:
    built = Descriptor("shell", ShellProps(command="ls", exit_code=None, stdout="", stderr=""))
    assert msgspec.json.encode(built) == (
        b'{"kind":"shell","props":{"command":"ls","exitCode":null,"stdout":"","stderr":""}}'
    )


def test_props_that_are_not_a_json_object_are_refused() -> None:
    class Pair(msgspec.Struct, array_like=True):
        a: int
        b: int

    with pytest.raises(TypeError, match="Pair does not encode to a JSON object"):
        Descriptor("acme.pair", Pair(1, 2))


def test_a_typo_in_a_prop_fails_mypy(tmp_path: Path) -> None:
    snippet = tmp_path / "tool.py"
    snippet.write_text(
        "from toolview import Descriptor, ShellProps\n"
        "ok = Descriptor('shell', ShellProps(command='ls', exit_code=1, stdout='', stderr=''))\n"
        "typo = ShellProps(command='ls', exitCode=1, stdout='', stderr='')\n"
        "wrong = Descriptor('shell', ['not', 'an', 'object'])\n",
        encoding="utf-8",
    )
    out, _, status = mypy_api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), str(snippet)]
    )
    errors = sorted(line.split(":")[1] for line in out.splitlines())
    assert status == 1 and errors == ["3", "4"], out
    assert 'Unexpected keyword argument "exitCode" for "ShellProps"' in out
